// The rules editor: import from here.
export { RulesView } from './RulesView';
