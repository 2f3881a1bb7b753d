import { RuleTester } from 'eslint';
import { describe, it } from 'vitest';
import plugin from '../../../scripts/eslint-shown-text.mjs';

// The lint rule that keeps every view on the display module: what it lets through, and what it stops.

RuleTester.describe = describe;
RuleTester.it = it;

const tester = new RuleTester({
  languageOptions: { ecmaVersion: 2022, sourceType: 'module', parserOptions: { ecmaFeatures: { jsx: true } } },
});
const child = [{ messageId: 'child' }];

tester.run('gatehouse/shown-text', plugin.rules['shown-text'], {
  valid: [
    'const a = <p>Fixed words</p>;',
    'const a = <p>{"literal"} {42}</p>;',
    'const a = <Shown text={request.target} strict />;',
    'const a = <p>{ok ? <Shown text={x} /> : "none"}</p>;',
    'const a = <ul>{items.map((i) => <li key={i.id}><Shown text={i.name} /></li>)}</ul>;',
    'const a = <p>{items.length} items, {n * 2} doubled, {total.toLocaleString()}</p>;',
    'const a = <p>{`${items.length} of ${all.length}`}</p>;',
    'const a = <p>{MODE_LABELS[mode]} {SOURCE_TEXT}</p>;',
    'const a = <option>{shownText(label)}</option>;',
    'const a = <code>{shownNodes(token.text)}</code>;',
    'const a = <span title={shownText(path)}>x</span>;',
    'const a = <span title="fixed">x</span>;',
    'const a = <Wrapper>{children}</Wrapper>;',
    'const a = <p>{cond && <b>yes</b>}</p>;',
  ],
  invalid: [
    { code: 'const a = <code>{request.target}</code>;', errors: child },
    { code: 'const a = <p>{error}</p>;', errors: child },
    { code: 'const a = <p>Now: {status.reason}</p>;', errors: child },
    { code: 'const a = <p>{`from ${file}`}</p>;', errors: child },
    { code: 'const a = <p>{describe(status)}</p>;', errors: child },
    { code: 'const a = <p>{x || "fallback"}</p>;', errors: child },
    { code: 'const a = <p>{ok ? rule : "none"}</p>;', errors: child },
    { code: 'const a = <ul>{hooks.map((h) => h.command)}</ul>;', errors: child },
    { code: 'const a = <ul>{hooks.map((h) => { return <li>{h.command}</li>; })}</ul>;', errors: child },
    { code: 'const a = <p>{"a" + name}</p>;', errors: child },
    { code: 'const a = <span title={project}>x</span>;', errors: [{ messageId: 'attribute' }] },
    { code: 'const a = <input placeholder={view.model.effective} />;', errors: [{ messageId: 'attribute' }] },
    { code: 'const a = <Foo children={text} />;', errors: [{ messageId: 'attribute' }] },
    { code: 'const a = <div dangerouslySetInnerHTML={{ __html: html }} />;', errors: [{ messageId: 'html' }] },
  ],
});
