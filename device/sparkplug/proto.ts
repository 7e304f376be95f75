// The Sparkplug B payload schema (3.0 chapter 6, sparkplug_b.proto, proto2, package
// org.eclipse.tahu.protobuf) as a protobufjs JSON descriptor, with the field numbers of the
// specification's .proto and only the messages and fields the edge node uses: protobuf skips what a
// schema does not name, so leaving out DataSet, Template, extensions, metadata and property set
// lists is the same wire format. Loaded by payload.ts with import(), so protobufjs sits in a chunk
// of its own that a unit without Sparkplug never reads (build/node-bundle.ts).
//
// Two payload types:
// - Payload: what the edge node publishes (births, data, deaths), with PropertySet for engUnit.
// - CommandPayload: how NCMD/DCMD from the network are read. Its metric has no message field at
//   all: template_value (18), dataset_value (17), extension_value (19), metadata (8), properties (9)
//   and bytes_value (16) are unknown to it, so protobufjs skips them by their length without looking
//   inside. A nested Template cannot recurse or cost more than its bytes (Tahu's decodePayload takes
//   time exponential in the nesting: docs/sparkplug.md).
import protobuf from 'protobufjs/light.js';

const scalars = (first: number) => ({
  int_value: { type: 'uint32', id: first },
  long_value: { type: 'uint64', id: first + 1 },
  float_value: { type: 'float', id: first + 2 },
  double_value: { type: 'double', id: first + 3 },
  boolean_value: { type: 'bool', id: first + 4 },
  string_value: { type: 'string', id: first + 5 },
});
const metricHead = {
  name: { type: 'string', id: 1 },
  alias: { type: 'uint64', id: 2 },
  timestamp: { type: 'uint64', id: 3 },
  datatype: { type: 'uint32', id: 4 },
  is_historical: { type: 'bool', id: 5 },
  is_transient: { type: 'bool', id: 6 },
  is_null: { type: 'bool', id: 7 },
};
const payload = (metric: string) => ({
  fields: {
    timestamp: { type: 'uint64', id: 1 },
    metrics: { rule: 'repeated', type: metric, id: 2 },
    seq: { type: 'uint64', id: 3 },
  },
});

const MESSAGES = {
  Payload: payload('Metric'),
  Metric: { fields: { ...metricHead, properties: { type: 'PropertySet', id: 9 }, ...scalars(10) } },
  PropertySet: { fields: { keys: { rule: 'repeated', type: 'string', id: 1 }, values: { rule: 'repeated', type: 'PropertyValue', id: 2 } } },
  PropertyValue: { fields: { type: { type: 'uint32', id: 1 }, is_null: { type: 'bool', id: 2 }, ...scalars(3) } },
  CommandPayload: payload('CommandMetric'),
  CommandMetric: { fields: { ...metricHead, ...scalars(10) } },
};
// proto2 as the .proto: fields have presence, so seq 0 or a value 0 that is set is written (protobufjs
// reads a JSON descriptor as proto3 unless told, and proto3 leaves zeros out)
const SCHEMA = { nested: Object.fromEntries(Object.entries(MESSAGES).map(([name, type]) => [name, { ...type, edition: 'proto2' }])) };

// protobufjs finds long.js with a plain require that esbuild bundles; without it 64-bit fields
// would decode as lossy numbers, so a bundle that lost it must fail here and not send wrong values
if (!protobuf.util.Long) throw new Error('protobufjs has no Long: 64-bit values would lose precision');

const root = protobuf.Root.fromJSON(SCHEMA);
export const PayloadType = root.lookupType('Payload');
export const CommandPayloadType = root.lookupType('CommandPayload');
