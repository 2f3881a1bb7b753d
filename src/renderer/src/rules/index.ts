// The rules editor: import from here.
export { RulesView } from './RulesView';
export { canMakeRule, makeRuleFrom } from './builder/builder-store';
