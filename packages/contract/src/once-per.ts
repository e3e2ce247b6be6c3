/**
 * `make` with its result kept per key: the second call with a key returns what the first made. The contract uses it
 * for schemas built from a few keys again and again (a schema holds no state, so one can serve every field).
 */
export function oncePer<K, V>(make: (key: K) => V): (key: K) => V {
  const made = new Map<K, V>();
  return (key) => {
    if (made.has(key)) return made.get(key)!;
    const value = make(key);
    made.set(key, value);
    return value;
  };
}
