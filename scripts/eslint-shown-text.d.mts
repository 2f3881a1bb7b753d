import type { Rule } from 'eslint';

declare const plugin: { rules: { 'shown-text': Rule.RuleModule } };
export default plugin;
