import {
  getNamedType,
  isInputObjectType,
  isListType,
  isNonNullType,
  type GraphQLArgument,
  type GraphQLInputType,
} from 'graphql';
import { buildSchema, Query, Resolver } from 'type-graphql';
import { readArgs } from '../../rest-mapping/args.js';
import { readJson, type Fields, type Shape } from '../../src/core/json-shape.js';
import { SendResolver } from '../../src/modules/sending/send.resolver.js';
import { SEND_EMAIL_SHAPE } from '../../src/modules/sending/send.shape.js';

/**
 * A bulk send's items are read by a job, outside the surfaces, against SEND_EMAIL_SHAPE. These
 * keep that shape equal to the send_email arguments of the schema, and its reading equal to the
 * /v1 pre-check of POST /v1/email, so both refuse the same bodies with the same keys and words.
 */
let args: readonly GraphQLArgument[];

/** A schema needs a query; the send mutation alone is what is read here. */
@Resolver()
class ProbeResolver {
  @Query(() => Boolean)
  probe(): boolean {
    return true;
  }
}

beforeAll(async () => {
  const schema = await buildSchema({ resolvers: [SendResolver, ProbeResolver], authChecker: () => true, validate: false });
  args = schema.getMutationType()!.getFields().send_email.args;
});

/** The shape a GraphQL input type stands for, in the terms of core/json-shape.ts. */
function shapeOf(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return { ...(shapeOf(type.ofType) as object), required: true };
  if (isListType(type)) return { kind: 'list', of: shapeOf(type.ofType) };
  if (isInputObjectType(type)) {
    return { kind: 'object', fields: Object.fromEntries(Object.values(type.getFields()).map((f) => [f.name, shapeOf(f.type)])) };
  }
  const name = getNamedType(type).name;
  return ['String', 'Int', 'Boolean'].includes(name) ? { kind: name } : { kind: 'scalar', name };
}

/** The shape without its parse functions, for comparison. */
function plain(shape: Shape): unknown {
  const { required, ...rest } = shape;
  const base =
    rest.kind === 'list'
      ? { kind: 'list', of: plain(rest.of) }
      : rest.kind === 'object'
        ? { kind: 'object', fields: plainFields(rest.fields) }
        : rest.kind === 'scalar'
          ? { kind: 'scalar', name: rest.name }
          : { kind: rest.kind };
  return required ? { ...base, required: true } : base;
}
const plainFields = (fields: Fields) => Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, plain(v)]));

describe('SEND_EMAIL_SHAPE', () => {
  it('is the send_email arguments: names in order, nullability, lists, nested inputs, scalars', () => {
    const fromSchema = Object.fromEntries(args.map((a) => [a.name, shapeOf(a.type)]));
    expect(Object.keys(plainFields(SEND_EMAIL_SHAPE))).toEqual(args.map((a) => a.name));
    expect(plainFields(SEND_EMAIL_SHAPE)).toEqual(fromSchema);
  });

  const address = { email: 'a@example.com', name: 'A' };
  const bodies: Record<string, unknown>[] = [
    {},
    { from: address, to: [address], subject: 'Hi', text: 'x' },
    { from: address, to: [address], subject: 'Hi', html: '<p>x</p>', unknown_field: 1, cc: null, bcc: [address] },
    { to: [] },
    { to: '  ' },
    { to: [null] },
    { to: [{ name: 'no email' }] },
    { to: [{ email: '   ' }] },
    { to: address },
    { to: ['a@example.com'] },
    { from: 'a@example.com', to: [address] },
    { from: [address], to: [address] },
    { from: { email: 42 }, to: [address], subject: 7, text: true, html: {} },
    { to: [address], tags: ['a', 1, null], references: 'ref' },
    { to: [address], attachments: [{ content: 'eA==', filename: 'a.txt', disposition: 'inline', id: 'x' }, { filename: '' }, 'x'] },
    { to: [address], personalization: [{ email: 'a@example.com', data: { x: 1 } }, { email: 'b@example.com', data: [1] }, { email: 'c@example.com' }] },
    { to: [address], precedence_bulk: 'true' },
    { to: [address], precedence_bulk: false, send_at: 1700000000 },
    { to: [address], send_at: '2026-11-30T10:00:00Z' },
    { to: [address], send_at: 1.5 },
    { to: [address], send_at: true },
    { to: [address], settings: { track_opens: true } },
    { to: [address], settings: ['track_opens'] },
    { to: [address], settings: 'x' },
    { to: [address], headers: [{ name: 'X-A', value: 'b' }, { name: 'X-B' }, { value: 1 }] },
    { to: [address], list_unsubscribe: ['<https://x>'], in_reply_to: 3, language: null, template_id: 9 },
  ];

  it.each(bodies.map((b) => [JSON.stringify(b), b]))('reads %s as the /v1 pre-check does', (_label, body) => {
    const expected = readArgs(args, {}, {}, body as Record<string, unknown>);
    const got = readJson(SEND_EMAIL_SHAPE, body as Record<string, unknown>);
    expect(got.errors).toEqual(expected.errors);
    expect(got.value).toEqual(expected.variables);
  });
});
