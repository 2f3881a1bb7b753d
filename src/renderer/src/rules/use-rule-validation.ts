import { useEffect, useState } from 'react';
import type { RuleBehavior } from '../../../shared/permission';
import { errorMessage } from '../api/errors';
import { useApi } from '../api/context';

export type RuleValidation =
  | { state: 'empty' }
  | { state: 'checking' }
  | { state: 'ok'; warnings: string[] }
  | { state: 'bad'; error: string };

/** Live syntax validation of a rule as it is typed: main parses it with the engine's own rule parser. */
export function useRuleValidation(rule: string, behavior: RuleBehavior = 'allow'): RuleValidation {
  const api = useApi();
  const [validation, setValidation] = useState<RuleValidation>({ state: 'empty' });
  useEffect(() => {
    if (!rule.trim()) {
      setValidation({ state: 'empty' });
      return;
    }
    let current = true;
    setValidation({ state: 'checking' });
    const timer = setTimeout(() => {
      api.validateRule({ rule, behavior }).then(
        (r) =>
          current &&
          setValidation(
            r.ok ? { state: 'ok', warnings: r.warnings ?? [] } : { state: 'bad', error: r.error ?? 'invalid rule' },
          ),
        (err: unknown) => current && setValidation({ state: 'bad', error: errorMessage(err) }),
      );
    }, 120);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [api, rule, behavior]);
  return validation;
}

/** The hint under a rule box: what is wrong, or where a valid rule will be written. */
export function validationText(validation: RuleValidation, target: string): string {
  switch (validation.state) {
    case 'bad':
      return `Invalid rule: ${validation.error}`;
    case 'ok':
      return validation.warnings.length
        ? `Valid syntax, but: ${validation.warnings.join('; ')}. It will be written to ${target}`
        : `Valid rule; it will be written to ${target}`;
    case 'checking':
      return 'Checking…';
    default:
      return 'Type a rule such as Bash(npm test) or Edit(src/**).';
  }
}
