// The Skills & sub-agents page: import from here.
export { SkillsView } from './SkillsView';
import './skills.css';
