import type { WordChar } from './words';

/**
 * Bash brace expansion on unquoted characters: `{a,b}` and `{1..3}` / `{a..c}` sequences. Returns null when the
 * expansion would produce more than `limit` words (the caller treats the word as unknowable).
 */
const SEQUENCE = /^(-?\d+|[a-zA-Z])\.\.(-?\d+|[a-zA-Z])(?:\.\.(-?\d+))?$/;

function text(chars: WordChar[]): string {
  return chars.map((ch) => ch.c).join('');
}

function sequence(body: string, limit: number): string[] | null {
  const m = SEQUENCE.exec(body);
  if (m === null) return null;
  const [, a, b, stepText] = m as unknown as [string, string, string, string | undefined];
  const numeric = /^-?\d+$/.test(a) && /^-?\d+$/.test(b);
  if (!numeric && (/\d/.test(a) || /\d/.test(b))) return null;
  const from = numeric ? parseInt(a, 10) : a.charCodeAt(0);
  const to = numeric ? parseInt(b, 10) : b.charCodeAt(0);
  const step = Math.abs(stepText === undefined ? 1 : parseInt(stepText, 10)) || 1;
  if (Math.abs(to - from) / step > limit) return [];
  const out: string[] = [];
  const dir = to >= from ? 1 : -1;
  for (let v = from; dir > 0 ? v <= to : v >= to; v += dir * step) {
    out.push(numeric ? String(v) : String.fromCharCode(v));
  }
  return out;
}

interface Brace {
  open: number;
  close: number;
  alternatives: WordChar[][];
}

function findBrace(chars: WordChar[], limit: number): Brace | null {
  for (let open = 0; open < chars.length; open++) {
    const o = chars[open] as WordChar;
    if (o.q || o.c !== '{') continue;
    let depth = 0;
    const commas: number[] = [];
    for (let j = open + 1; j < chars.length; j++) {
      const ch = chars[j] as WordChar;
      if (ch.q) continue;
      if (ch.c === '{') depth++;
      else if (ch.c === '}' && depth > 0) depth--;
      else if (ch.c === ',' && depth === 0) commas.push(j);
      else if (ch.c === '}' && depth === 0) {
        if (commas.length > 0) {
          const bounds = [open, ...commas, j];
          const alternatives: WordChar[][] = [];
          for (let k = 0; k + 1 < bounds.length; k++) {
            alternatives.push(chars.slice((bounds[k] as number) + 1, bounds[k + 1]));
          }
          return { open, close: j, alternatives };
        }
        const seq = sequence(text(chars.slice(open + 1, j)), limit);
        if (seq !== null) {
          return { open, close: j, alternatives: seq.map((s) => [...s].map((c) => ({ c, q: true }))) };
        }
        break;
      }
    }
  }
  return null;
}

export function braceExpand(chars: WordChar[], limit = 256): WordChar[][] | null {
  const brace = findBrace(chars, limit);
  if (brace === null) return [chars];
  if (brace.alternatives.length === 0) return null;
  const prefix = chars.slice(0, brace.open);
  const suffix = chars.slice(brace.close + 1);
  const out: WordChar[][] = [];
  for (const alt of brace.alternatives) {
    const expanded = braceExpand([...prefix, ...alt, ...suffix], limit);
    if (expanded === null) return null;
    out.push(...expanded);
    if (out.length > limit) return null;
  }
  return out;
}
