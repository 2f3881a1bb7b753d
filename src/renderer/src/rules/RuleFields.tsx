import { useId } from 'react';
import type { Ref } from 'react';
import { Shown, shownText } from '../display/Shown';

export interface TextFieldProps {
  label: string;
  value: string;
  onChange(value: string): void;
  placeholder?: string;
  /** aria-invalid; left out when undefined. */
  invalid?: boolean;
  /** The id of the hint that describes the field. */
  describedBy?: string;
  inputRef?: Ref<HTMLInputElement>;
}

/** A labelled text input of the rules editor (a rule, a directory): no spell check, no autocomplete. */
export function TextField({ label, value, onChange, placeholder, invalid, describedBy, inputRef }: TextFieldProps) {
  const id = useId();
  return (
    <div className="rules-field">
      <label htmlFor={id}>
        <Shown text={label} lines="inline" />
      </label>
      <input
        id={id}
        ref={inputRef}
        type="text"
        value={value}
        placeholder={placeholder === undefined ? undefined : shownText(placeholder)}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.value)}
        spellCheck={false}
        autoComplete="off"
      />
    </div>
  );
}

export interface ChoiceFieldProps<T extends string> {
  label: string;
  value: NoInfer<T>;
  /** The choices, in order, each shown as itself (a zod enum fits). */
  choices: { readonly options: readonly T[]; parse(value: unknown): T };
  onChange(value: NoInfer<T>): void;
}

/** A labelled select of the rules editor (a behavior, a scope). */
export function ChoiceField<T extends string>({ label, value, choices, onChange }: ChoiceFieldProps<T>) {
  const id = useId();
  return (
    <div className="rules-field">
      <label htmlFor={id}>
        <Shown text={label} lines="inline" />
      </label>
      <select id={id} value={value} onChange={(e) => onChange(choices.parse(e.target.value))}>
        {choices.options.map((c) => (
          <option key={c} value={c}>
            {shownText(c)}
          </option>
        ))}
      </select>
    </div>
  );
}
