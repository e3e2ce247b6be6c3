/**
 * Node's built-in crypto when the engine runs on Node (20.16+ has `process.getBuiltinModule`), else undefined (a
 * browser running the engine behind msw): native code where the engine's hot paths can use it, portable code elsewhere.
 */
export type NodeCrypto = typeof import('node:crypto');

export const nodeCrypto: NodeCrypto | undefined = (() => {
  const process = (globalThis as { process?: { getBuiltinModule?: (name: string) => unknown } }).process;
  return process?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;
})();
