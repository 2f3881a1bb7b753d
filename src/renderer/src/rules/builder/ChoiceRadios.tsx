import { createContext, useContext, useId } from 'react';
import type { ReactNode } from 'react';
import { Shown } from '../../display/Shown';

interface Group {
  name: string;
  value: string | null;
  onChange(value: string): void;
}

const GroupContext = createContext<Group | null>(null);

/**
 * A fieldset of radio buttons (arrow keys move and choose, as the browser does for one name): the builder's kind,
 * reach, decision and scope. Its choices are `<Choice>` children.
 */
export function ChoiceRadios<T extends string>({
  legend,
  value,
  onChange,
  className,
  testId,
  children,
}: {
  legend: string;
  value: T | null;
  /** NoInfer: T comes from `value` (a state setter here would widen it to string). */
  onChange(value: NoInfer<T>): void;
  className?: string;
  testId?: string;
  children: ReactNode;
}) {
  const name = useId();
  return (
    <fieldset className={`builder-choices${className ? ` ${className}` : ''}`} data-testid={testId}>
      <legend>
        <Shown text={legend} lines="inline" />
      </legend>
      <GroupContext.Provider value={{ name, value, onChange: (v) => onChange(v as T) }}>
        {children}
      </GroupContext.Provider>
    </fieldset>
  );
}

/**
 * One radio of a ChoiceRadios: its label (the children) is its name; a one-line hint, what choosing it means, is its
 * description.
 */
export function Choice({
  value,
  hint,
  disabled,
  children,
}: {
  value: string;
  hint?: string;
  disabled?: boolean;
  children: ReactNode;
}) {
  const group = useContext(GroupContext);
  const id = useId();
  if (!group) throw new Error('<Choice> belongs inside <ChoiceRadios>');
  return (
    <label className="builder-choice">
      <input
        type="radio"
        name={group.name}
        value={value}
        checked={group.value === value}
        disabled={disabled}
        aria-labelledby={`${id}-label`}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={() => group.onChange(value)}
      />
      <span className="builder-choice-text">
        <span id={`${id}-label`} className="builder-choice-label">
          {children}
        </span>
        {hint ? (
          <Shown id={`${id}-hint`} className="builder-choice-hint muted" text={hint} strict lines="inline" />
        ) : null}
      </span>
    </label>
  );
}
