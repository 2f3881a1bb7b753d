export { flushLogs, Logger, logsDir, openLog } from './logger';
export type { LogLevel, LogName, OutputSink } from './logger';
export { RotatingLogFile } from './rotating-file';
export type { RotationOptions } from './rotating-file';
