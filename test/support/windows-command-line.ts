/**
 * How a Windows program splits its command line (CommandLineToArgvW and the C runtime since 2008): whitespace splits
 * outside quotes, 2n backslashes before a quote are n and the quote opens or closes, 2n+1 are n and a literal quote,
 * `""` inside quotes is a literal quote, other backslashes are literal.
 */
export function splitWindowsCommandLine(line: string): string[] {
  const args: string[] = [];
  let i = 0;
  while (i < line.length) {
    while (line[i] === ' ' || line[i] === '\t') i++;
    if (i >= line.length) break;
    let arg = '';
    let quoted = false;
    while (i < line.length) {
      const c = line[i]!;
      if ((c === ' ' || c === '\t') && !quoted) break;
      if (c === '\\') {
        let k = 0;
        while (line[i + k] === '\\') k++;
        if (line[i + k] === '"') {
          arg += '\\'.repeat(Math.floor(k / 2));
          if (k % 2 === 1) {
            arg += '"';
            i += k + 1;
          } else i += k;
        } else {
          arg += '\\'.repeat(k);
          i += k;
        }
        continue;
      }
      if (c === '"') {
        if (quoted && line[i + 1] === '"') {
          arg += '"';
          i += 2;
        } else {
          quoted = !quoted;
          i++;
        }
        continue;
      }
      arg += c;
      i++;
    }
    args.push(arg);
  }
  return args;
}
