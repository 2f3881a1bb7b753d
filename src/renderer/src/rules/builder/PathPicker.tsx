import { useEffect, useState } from 'react';
import { errorMessage } from '../../api/errors';
import { useApi } from '../../api/context';
import { Shown } from '../../display/Shown';
import { Choice, ChoiceRadios } from './ChoiceRadios';
import { FileTree } from './FileTree';
import { extensionOf, pathPattern, pathRule, type PathReach, type PointedPath } from './rule-text';

type Count =
  | { state: 'counting' }
  | { state: 'done'; count: number; complete: boolean }
  | { state: 'failed'; error: string };

function countText(c: Count | null): string {
  if (c === null) return '';
  if (c.state === 'counting') return 'Counting the files it matches…';
  if (c.state === 'failed') return `Could not count the files: ${c.error}`;
  const n = `${c.complete ? '' : 'at least '}${c.count.toLocaleString()}`;
  return `Matches ${n} file${c.count === 1 && c.complete ? '' : 's'} now${c.complete ? '' : ' (counting stopped early)'}`;
}

/**
 * A Read or Edit rule by pointing: a file or folder chosen in the tree, how far the rule reaches (this file, the
 * folder and below, files with its extension), the pattern shown, and how many files it matches now (main counts,
 * with the engine's own pattern matching, bounded).
 */
export function PathPicker({
  kind,
  reveal,
  onRule,
}: {
  kind: 'read' | 'edit';
  reveal: { path: string; nonce: number } | null;
  onRule(rule: string | null): void;
}) {
  const api = useApi();
  const [selected, setSelected] = useState<PointedPath | null>(null);
  const [reach, setReach] = useState<PathReach>('folder');
  const [count, setCount] = useState<Count | null>(null);

  // A folder: the folder and below. A file after a folder (or nothing): this file. A file after a file: the same reach.
  const choose = (p: PointedPath): void => {
    const afterFile = selected !== null && !selected.isDir;
    setSelected(p);
    if (p.isDir) setReach('folder');
    else if (!afterFile || (reach === 'extension' && extensionOf(p.rel.split('/').pop() ?? '') === null))
      setReach('file');
  };
  const pattern = selected ? pathPattern(selected, reach) : null;
  const rule = pattern === null ? null : pathRule(kind, pattern);
  useEffect(() => onRule(rule), [rule, onRule]);

  useEffect(() => {
    setCount(null);
    if (rule === null) return;
    let live = true;
    const timer = setTimeout(() => {
      setCount({ state: 'counting' });
      api.countRuleFiles({ rule }).then(
        (r) => live && setCount({ state: 'done', count: r.count, complete: r.complete }),
        (err: unknown) => live && setCount({ state: 'failed', error: errorMessage(err) }),
      );
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [api, rule]);

  const name = selected?.rel.split('/').pop() ?? '';
  const folder = selected ? (selected.isDir ? selected.rel : selected.rel.split('/').slice(0, -1).join('/')) : '';
  const ext = selected && !selected.isDir ? extensionOf(name) : null;

  return (
    <div className="builder-path">
      <p className="muted builder-label">
        {kind === 'read'
          ? 'Choose a file or folder the agent reads (read_file, find_files, search_code, and files commands read):'
          : 'Choose a file or folder the agent writes (write_file, edit_file, and files commands write):'}
      </p>
      <FileTree reveal={reveal} selected={selected} onSelect={choose} />
      <p className="builder-selected" data-testid="builder-selected">
        {selected ? (
          <>
            {'Chosen: '}
            <Shown
              text={selected.rel || (selected.inProject ? '(the project folder)' : selected.root)}
              strict
              lines="inline"
              as="code"
            />
          </>
        ) : (
          <span className="muted">Nothing chosen yet.</span>
        )}
      </p>
      <ChoiceRadios legend="What the rule covers" value={reach} onChange={setReach} testId="builder-path-reach">
        <Choice
          value="file"
          disabled={!selected || selected.isDir}
          hint={selected?.isDir ? 'choose a file in the tree for this' : 'only this one path'}
        >
          This file
        </Choice>
        <Choice
          value="folder"
          disabled={!selected}
          hint={`${folder || 'the whole project'}, every file and folder inside`}
        >
          This folder and everything below it
        </Choice>
        <Choice
          value="extension"
          disabled={ext === null}
          hint={
            ext
              ? `every *${ext} file in ${folder || 'the project'} and below`
              : 'choose a file with an extension for this'
          }
        >
          {'Files like this'}
          {ext ? <Shown text={` (*${ext})`} strict lines="inline" /> : null}
        </Choice>
      </ChoiceRadios>
      <p className="muted builder-count" aria-live="polite" data-testid="builder-count">
        <Shown text={countText(count)} lines="inline" />
      </p>
    </div>
  );
}
