import { useEffect, useId, useState } from 'react';
import type { CommandWords } from '../../../../shared/rule-builder-contract';
import { errorMessage } from '../../api/errors';
import { useApi } from '../../api/context';
import { Shown, shownText } from '../../display/Shown';
import { Choice, ChoiceRadios } from './ChoiceRadios';
import { commandRule, usableWords, type CommandReach } from './rule-text';

/** The leading words a rule usually names: the program and its sub-commands, up to the first option or path. */
function leadCount(words: CommandWords['parts'][number]['words']): number {
  let n = 0;
  for (const w of words.slice(0, 3)) {
    if (w.unusable || w.glob || w.dynamic) break;
    if (n > 0 && (w.text.startsWith('-') || w.text.includes('/') || w.text.includes('='))) break;
    n++;
  }
  return Math.max(1, n);
}

/**
 * A command rule by pointing: a recent command of this project (or one pasted), its words as chips, the person
 * choosing the last word the rule names and whether more words may follow. The words come from main (the engine's
 * bash parser), so a chip is exactly what an allow rule is matched against.
 */
export function CommandPicker({ seed, onRule }: { seed: string | null; onRule(rule: string | null): void }) {
  const api = useApi();
  const [recent, setRecent] = useState<string[]>([]);
  const [command, setCommand] = useState<string | null>(seed);
  const [pasted, setPasted] = useState('');
  const [words, setWords] = useState<CommandWords | null>(null);
  const [part, setPart] = useState(0);
  const [count, setCount] = useState(0);
  const [reach, setReach] = useState<CommandReach>('prefix');
  const [error, setError] = useState<string | null>(null);
  const ids = { chips: useId(), pasted: useId(), notes: useId() };

  useEffect(() => {
    let live = true;
    api.recentCommands({}).then(
      (r) => {
        if (!live) return;
        setRecent(r.commands);
        setCommand((c) => c ?? r.commands[0] ?? null);
      },
      (err: unknown) => live && setError(errorMessage(err)),
    );
    return () => {
      live = false;
    };
  }, [api]);

  useEffect(() => {
    if (seed !== null) setCommand(seed);
  }, [seed]);

  useEffect(() => {
    setWords(null);
    if (command === null) return;
    let live = true;
    api.commandWords({ command }).then(
      (w) => {
        if (!live) return;
        setWords(w);
        setPart(0);
        const first = w.parts[0]?.words ?? [];
        const lead = Math.min(leadCount(first), usableWords(first));
        setCount(lead);
        setReach(lead === first.length ? 'exact' : 'prefix');
        setError(null);
      },
      (err: unknown) => live && setError(errorMessage(err)),
    );
    return () => {
      live = false;
    };
  }, [api, command]);

  const chosen = words?.parts[part] ?? null;
  const rule = chosen ? commandRule(chosen.words, count, reach) : null;
  useEffect(() => onRule(rule), [rule, onRule]);

  const commands = command !== null && !recent.includes(command) ? [command, ...recent] : recent;
  const spec = chosen
    ? chosen.words
        .slice(0, count)
        .map((w) => w.text)
        .join(' ')
    : '';
  const usable = chosen ? usableWords(chosen.words) : 0;
  const picked = chosen?.words.slice(0, count) ?? [];

  return (
    <div className="builder-command">
      {commands.length === 0 ? (
        <p className="muted">
          No commands in this project&apos;s audit log yet: they appear here once the agent runs some. You can paste one
          below.
        </p>
      ) : (
        <ChoiceRadios
          legend="Recent command"
          className="builder-commands"
          testId="builder-commands"
          value={command}
          onChange={setCommand}
        >
          {commands.map((c) => (
            <Choice key={c} value={c}>
              <Shown text={c} strict lines="inline" as="code" />
            </Choice>
          ))}
        </ChoiceRadios>
      )}
      <form
        className="builder-paste"
        aria-label="Use another command"
        onSubmit={(e) => {
          e.preventDefault();
          if (pasted.trim()) setCommand(pasted.trim());
        }}
      >
        <label htmlFor={ids.pasted}>Or paste a command</label>
        <input
          id={ids.pasted}
          type="text"
          value={pasted}
          spellCheck={false}
          autoComplete="off"
          onChange={(e) => setPasted(e.target.value)}
        />
        <button type="submit" className="secondary" disabled={!pasted.trim()}>
          Use it
        </button>
      </form>
      {error ? (
        <p className="error" role="alert">
          <Shown text={error} />
        </p>
      ) : null}
      {words && words.parts.length > 1 ? (
        <ChoiceRadios
          legend="This command has several parts: a rule names one (each part needs an allow rule to run without asking)"
          value={String(part)}
          onChange={(v) => {
            const i = Number(v);
            const ws = words.parts[i]?.words ?? [];
            setPart(i);
            setCount(Math.min(leadCount(ws), usableWords(ws)));
          }}
        >
          {words.parts.map((p, i) => (
            <Choice key={i} value={String(i)}>
              <Shown text={p.text} strict lines="inline" as="code" />
            </Choice>
          ))}
        </ChoiceRadios>
      ) : null}
      {words && words.parts.length === 0 ? (
        <p className="rule-warning">
          <Shown
            text={`No program in this command that a rule could name${words.reasons.length ? ` (${words.reasons.join('; ')})` : ''}.`}
          />
        </p>
      ) : null}
      {chosen ? (
        <>
          <div className="builder-chips" role="group" aria-labelledby={ids.chips} aria-describedby={ids.notes}>
            <p id={ids.chips} className="builder-label">
              Words the rule names: choose the last one
            </p>
            {chosen.words.map((w, i) => (
              <button
                key={i}
                type="button"
                className="builder-chip"
                aria-pressed={i < count}
                disabled={i >= usable}
                title={
                  w.unusable
                    ? 'a rule cannot spell this word (a line break or a run of spaces)'
                    : shownText(`The rule names the words up to ${w.text}`, { strict: true })
                }
                onClick={() => setCount(i + 1)}
              >
                <Shown text={w.text} strict lines="inline" as="code" />
              </button>
            ))}
          </div>
          <ChoiceRadios legend="How far the rule reaches" value={reach} onChange={setReach} testId="builder-reach">
            <Choice value="exact" hint="this command with these words and nothing more">
              {'Exactly '}
              <Shown text={spec} strict lines="inline" as="code" />
            </Choice>
            <Choice
              value="prefix"
              hint={'these words alone or followed by more words (not a longer word: "lint" is not "lintx")'}
            >
              <Shown text={spec} strict lines="inline" as="code" />
              {' and anything after it'}
            </Choice>
          </ChoiceRadios>
          <ul id={ids.notes} className="builder-notes">
            {words && !words.readable ? (
              <li className="rule-warning">
                <Shown
                  text={`Gatehouse cannot read this command (${words.reasons.join('; ')}): it asks for it whatever an allow rule says; a deny rule still denies it.`}
                />
              </li>
            ) : null}
            {chosen.allowBlocked ? (
              <li className="rule-warning">
                <Shown text={`No allow rule matches this part: ${chosen.allowBlocked}.`} />
              </li>
            ) : null}
            {picked.some((w) => w.glob) ? (
              <li className="muted">A * in a rule matches any run of characters, not only a star.</li>
            ) : null}
            {picked.some((w) => w.dynamic) ? (
              <li className="muted">
                A word with $ or a glob is expanded when the command runs: the rule matches the text as written.
              </li>
            ) : null}
            {usable < chosen.words.length ? (
              <li className="muted">
                Words from the first one with a line break or a run of spaces cannot be written in a rule.
              </li>
            ) : null}
          </ul>
        </>
      ) : null}
    </div>
  );
}
