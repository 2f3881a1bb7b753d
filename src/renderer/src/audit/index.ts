// The Audit log view: the open project's decisions. Import from here.
export { AuditView } from './AuditView';
export { filterAudit, answeredBy } from './audit-filter';
import './audit.css';
