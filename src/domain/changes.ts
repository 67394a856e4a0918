/**
 * The entries of `wanted` that differ from `current`: what an update really changes. Callers
 * set `updated_at` only when this is non-empty ("updated_at changes only on an effective change").
 */
export function effectiveChanges<T extends object>(current: T, wanted: Partial<T>): Partial<T> | null {
  const changes = Object.fromEntries(
    Object.entries(wanted).filter(([field, value]) => value !== undefined && current[field as keyof T] !== value),
  ) as Partial<T>;
  return Object.keys(changes).length > 0 ? changes : null;
}
