/** The wire kit, now in ecs/core/faces/wire.ts; re-exported for the wire files not yet moved to faces. */
export {
  type ClientEventSpec,
  type CommandBase,
  clientEvent,
  command,
  type Exact,
  type ServerEventSpec,
  serverEvent,
  type Translation,
} from '../../ecs/core/faces/wire.ts';
