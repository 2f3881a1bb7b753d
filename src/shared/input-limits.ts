/**
 * Limits on a tool call's input from the model (untrusted): how deep it may nest and how many values it may hold.
 * Real tool inputs are flat objects of strings; an input nested thousands of levels deep would overflow the stack of
 * every recursive step after it (JSON.stringify, structured clone, validation), so it is refused as a schema error
 * before anything else touches it. Measured without recursion.
 */
const MAX_INPUT_DEPTH = 64;
const MAX_INPUT_VALUES = 100_000;

/** Why `value` is beyond the limits, or null when it is within them. */
export function inputLimitProblem(value: unknown): string | null {
  const stack: { v: unknown; depth: number }[] = [{ v: value, depth: 0 }];
  let values = 0;
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    values++;
    if (values > MAX_INPUT_VALUES) return `the tool input holds more than ${MAX_INPUT_VALUES} values`;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= MAX_INPUT_DEPTH) return `the tool input is nested more than ${MAX_INPUT_DEPTH} levels deep`;
    for (const child of Array.isArray(v) ? v : Object.values(v as Record<string, unknown>))
      stack.push({ v: child, depth: depth + 1 });
  }
  return null;
}
