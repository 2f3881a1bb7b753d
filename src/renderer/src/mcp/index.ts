// The MCP page: import from here.
export { McpView } from './McpView';
import './mcp.css';
