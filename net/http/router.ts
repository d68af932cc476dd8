import type { HttpMethod, RouteDef } from './types.ts';

/**
 * Method + path router: literal segments, `:name` parameters and a trailing `*` (rest of the path in
 * params['*']). Literal segments win over parameters, so `/api/agents/mapping/:id` beats
 * `/api/agents/:agentId/goal` regardless of registration order.
 */

interface Node {
  literal: Map<string, Node>;
  param: { name: string; node: Node } | undefined;
  wildcard: Map<HttpMethod, RouteDef> | undefined;
  routes: Map<HttpMethod, RouteDef>;
}

const newNode = (): Node => ({
  literal: new Map(),
  param: undefined,
  wildcard: undefined,
  routes: new Map(),
});

export type RouteMatch =
  | { kind: 'found'; route: RouteDef; params: Record<string, string> }
  /** The path exists with other methods: 405 with `Allow`. */
  | { kind: 'method-not-allowed'; allowed: HttpMethod[] }
  | { kind: 'not-found' };

export class Router {
  private readonly root = newNode();

  constructor(routes: readonly RouteDef[] = []) {
    for (const r of routes) this.add(r);
  }

  add(route: RouteDef): void {
    if (!route.path.startsWith('/')) throw new Error(`route path must start with "/": ${route.path}`);
    const segments = split(route.path);
    let node = this.root;
    for (let i = 0; i < segments.length; i++) {
      const seg = segments[i]!;
      if (seg === '*') {
        if (i !== segments.length - 1) throw new Error(`"*" must be the last segment: ${route.path}`);
        node.wildcard ??= new Map();
        setOnce(node.wildcard, route);
        return;
      }
      if (seg.startsWith(':')) {
        const name = seg.slice(1);
        if (node.param === undefined) node.param = { name, node: newNode() };
        else if (node.param.name !== name) {
          throw new Error(`conflicting parameter names :${node.param.name} and :${name} in ${route.path}`);
        }
        node = node.param.node;
      } else {
        let next = node.literal.get(seg);
        if (next === undefined) {
          next = newNode();
          node.literal.set(seg, next);
        }
        node = next;
      }
    }
    setOnce(node.routes, route);
  }

  /**
   * `rawPath` is the URL path as received: segments are percent-decoded one by one, so an encoded `/`
   * stays inside its parameter. Throws URIError on bad percent-encoding.
   */
  match(method: HttpMethod, rawPath: string): RouteMatch {
    const params: Record<string, string> = {};
    const methods = this.find(this.root, split(rawPath).map(decodeURIComponent), 0, params);
    if (methods === undefined) return { kind: 'not-found' };
    const route = methods.get(method);
    if (route !== undefined) return { kind: 'found', route, params };
    return { kind: 'method-not-allowed', allowed: [...methods.keys()] };
  }

  /** For a method no route can have (TRACE, CONNECT...): 405 when the path exists, else 404. */
  matchUnknownMethod(rawPath: string): RouteMatch {
    const methods = this.find(this.root, split(rawPath).map(decodeURIComponent), 0, {});
    return methods === undefined
      ? { kind: 'not-found' }
      : { kind: 'method-not-allowed', allowed: [...methods.keys()] };
  }

  private find(
    node: Node,
    segs: string[],
    i: number,
    params: Record<string, string>,
  ): Map<HttpMethod, RouteDef> | undefined {
    if (i === segs.length && node.routes.size > 0) return node.routes;
    if (i < segs.length) {
      const seg = segs[i]!;
      const lit = node.literal.get(seg);
      if (lit !== undefined) {
        const found = this.find(lit, segs, i + 1, params);
        if (found !== undefined) return found;
      }
      if (node.param !== undefined && seg.length > 0) {
        const found = this.find(node.param.node, segs, i + 1, params);
        if (found !== undefined) {
          params[node.param.name] = seg;
          return found;
        }
      }
    }
    if (node.wildcard !== undefined) {
      params['*'] = segs.slice(i).join('/');
      return node.wildcard;
    }
    return undefined;
  }
}

function split(path: string): string[] {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed === '/' ? [] : trimmed.slice(1).split('/');
}

function setOnce(map: Map<HttpMethod, RouteDef>, route: RouteDef): void {
  if (map.has(route.method)) throw new Error(`duplicate route ${route.method} ${route.path}`);
  map.set(route.method, route);
}
