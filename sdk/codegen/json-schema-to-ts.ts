/**
 * A small emitter from the JSON Schema that zod 4's `z.toJSONSchema` writes to a TypeScript type
 * expression. It knows the keywords those schemas use for shapes (type, properties, required,
 * additionalProperties, propertyNames, items, anyOf, oneOf, allOf, enum, const) and ignores the ones
 * that only bound values (minimum, maxLength, pattern...). Anything else that would change the shape
 * ($ref, not, if, prefixItems, patternProperties) is refused with an error naming where it was met,
 * so a new kind of schema cannot slip through as a wrong type.
 */

export type JsonSchema = boolean | { [key: string]: unknown };

const SHAPE_KEYWORDS_REFUSED = [
  '$ref',
  '$dynamicRef',
  'not',
  'if',
  'then',
  'else',
  'prefixItems',
  'patternProperties',
  'dependentSchemas',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
];

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : `'${name.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function literal(value: unknown, at: string): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new Error(`${at}: unsupported literal ${JSON.stringify(value)}`);
}

const union = (parts: string[]): string => [...new Set(parts)].join(' | ');

/** Whether `t` has a `|` or `&` outside any brackets or quotes. */
function hasTopLevelOperator(t: string): boolean {
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === "'") quoted = false;
    } else if (c === "'") quoted = true;
    else if (c === '{' || c === '(' || c === '[' || c === '<') depth++;
    else if (c === '}' || c === ')' || c === ']' || c === '>') depth--;
    else if (depth === 0 && (c === '|' || c === '&')) return true;
  }
  return false;
}

/** A parenthesised form where a union or intersection would bind wrongly (as an array element). */
const grouped = (t: string): string => (hasTopLevelOperator(t) ? `(${t})` : t);

/** The TypeScript type of `schema`, indented for nesting at `indent` levels (two spaces each). */
export function typeOf(schema: JsonSchema, at = '#', indent = 0): string {
  if (schema === true) return 'unknown';
  if (schema === false) return 'never';
  for (const k of SHAPE_KEYWORDS_REFUSED) {
    if (k in schema) throw new Error(`${at}: the keyword "${k}" is not supported by the emitter`);
  }
  if ('const' in schema) return literal(schema['const'], at);
  if (Array.isArray(schema['enum'])) return union(schema['enum'].map((v) => literal(v, at)));
  const alternatives = (schema['anyOf'] ?? schema['oneOf']) as JsonSchema[] | undefined;
  if (alternatives !== undefined) {
    return union(alternatives.map((s, i) => typeOf(s, `${at}/anyOf/${i}`, indent)));
  }
  if (Array.isArray(schema['allOf'])) {
    return (schema['allOf'] as JsonSchema[])
      .map((s, i) => grouped(typeOf(s, `${at}/allOf/${i}`, indent)))
      .join(' & ');
  }
  const type = schema['type'];
  if (Array.isArray(type)) {
    return union(type.map((t) => typeOf({ ...schema, type: t }, at, indent)));
  }
  switch (type) {
    case undefined:
      return 'unknown';
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      const items = schema['items'];
      if (items === undefined) return 'unknown[]';
      return `${grouped(typeOf(items as JsonSchema, `${at}/items`, indent))}[]`;
    }
    case 'object':
      return objectType(schema, at, indent);
    default:
      throw new Error(`${at}: unsupported type ${JSON.stringify(type)}`);
  }
}

function objectType(schema: { [key: string]: unknown }, at: string, indent: number): string {
  const properties = (schema['properties'] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema['required'] ?? []) as string[]);
  const extra = schema['additionalProperties'];
  const names = Object.keys(properties);
  // A record: no named properties, a schema for the others.
  if (names.length === 0 && extra !== undefined && extra !== false) {
    const value =
      extra === true ? 'unknown' : typeOf(extra as JsonSchema, `${at}/additionalProperties`, indent);
    return `Record<string, ${value}>`;
  }
  if (names.length === 0) return 'Record<string, never>';
  const pad = '  '.repeat(indent + 1);
  const lines = names.map((name) => {
    const optional = required.has(name) ? '' : '?';
    const t = typeOf(properties[name] as JsonSchema, `${at}/properties/${name}`, indent + 1);
    return `${pad}${propertyKey(name)}${optional}: ${t};`;
  });
  // Open objects (zod's .loose()) keep their other fields, of any type.
  if (extra !== undefined && extra !== false) {
    const open = extra === true || (typeof extra === 'object' && Object.keys(extra as object).length === 0);
    if (!open) throw new Error(`${at}: named properties with typed additionalProperties are not supported`);
    lines.push(`${pad}[key: string]: unknown;`);
  }
  return `{\n${lines.join('\n')}\n${'  '.repeat(indent)}}`;
}
