import type { AgentMode } from '../../shared/permission';

/** The words the runner sends the model for each agent mode. Kept together so they can be read and tuned. */

export function systemPrompt(agentMode: AgentMode, projectRoot: string, extra?: string): string {
  const lines = [
    'You are Gatehouse, a coding agent working in the project at ' + projectRoot + '.',
    'Use the tools to read, search and change files and to run commands. Paths are relative to the project root.',
    'Every tool call is checked by a permission engine. A denied call comes back as an error that says who denied it ' +
      'and why: do not try to get around a denial (another tool, another path, another spelling of the command); ' +
      'adapt, or explain what you need and stop.',
  ];
  if (agentMode === 'plan')
    lines.push('You are in plan mode: investigate with read-only tools and produce a plan. Do not change anything.');
  if (agentMode === 'do')
    lines.push('You are carrying out a plan the person confirmed. Stay within it; say so if it turns out to be wrong.');
  if (extra) lines.push(extra);
  return lines.join('\n');
}

export const PLAN_REMINDER =
  '<reminder>You are in plan mode: only read-only tools (read_file, find_files, search_code) are available and any ' +
  'other call is refused. Do not change anything; finish with the plan.</reminder>';

/** Plan mode reminds the model on the first turn and every four turns after (turns 1, 5, 9, ...). */
export function needsPlanReminder(turn: number): boolean {
  return turn >= 1 && (turn - 1) % 4 === 0;
}

/** The first user message of a run, by agent mode. */
export function taskMessage(agentMode: AgentMode, task: string, plan?: string): string {
  switch (agentMode) {
    case 'chat':
      return task;
    case 'plan':
      return [
        'Produce a plan for the task below. Do not change anything: read and search only.',
        'The plan should list the files to change, the changes, the commands to run and the risks, in order.',
        '',
        '<task>',
        task,
        '</task>',
      ].join('\n');
    case 'do':
      if (!plan) return task;
      return ['<task>', task, '</task>', '', 'Carry out this confirmed plan:', '<plan>', plan, '</plan>'].join('\n');
  }
}
