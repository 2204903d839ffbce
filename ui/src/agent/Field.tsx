// One labelled form field, shared by every Settings tab (Model, Capabilities, Privacy): a text,
// password or number input, a textarea (when `rows` is given), or a select. Each hands its new
// value to `onValue` as a string, and can show a problem under itself (`error`).
import type { ComponentChildren } from "preact";
import type { Problem } from "../api";
import { ProblemText } from "../ProblemText";

type Common = {
  label: ComponentChildren;
  id?: string;
  /** A problem with this field's value (shown under it, and the field is marked). */
  error?: Problem | null;
  disabled?: boolean;
};

export function TextField(
  props: Common & {
    value: string | number;
    onValue: (value: string) => void;
    placeholder?: string;
    type?: "text" | "password" | "number";
    /** A textarea of this many rows instead of an input. */
    rows?: number;
    min?: number;
    max?: number;
    step?: string;
    autocomplete?: string;
  },
) {
  const onInput = (e: Event) => props.onValue((e.target as HTMLInputElement | HTMLTextAreaElement).value);
  const shared = {
    id: props.id,
    value: props.value,
    placeholder: props.placeholder,
    disabled: props.disabled,
    "aria-invalid": props.error ? true : undefined,
    onInput,
  };
  return (
    <label class={props.error ? "field invalid" : "field"}>
      {props.label}
      {props.rows ? (
        <textarea {...shared} rows={props.rows} />
      ) : (
        <input
          {...shared}
          type={props.type ?? "text"}
          min={props.min}
          max={props.max}
          step={props.step}
          autocomplete={props.autocomplete}
        />
      )}
      {props.error && (
        <span class="field-error" id={props.id ? `${props.id}-error` : undefined} role="alert">
          <ProblemText problem={props.error} />
        </span>
      )}
    </label>
  );
}

export function SelectField<T extends string>(
  props: Common & {
    value: T;
    onValue: (value: T) => void;
    options: { value: T; label: string }[];
  },
) {
  return (
    <label class={props.error ? "field invalid" : "field"}>
      {props.label}
      <select
        id={props.id}
        value={props.value}
        disabled={props.disabled}
        onChange={(e) => props.onValue((e.target as HTMLSelectElement).value as T)}
      >
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {props.error && (
        <span class="field-error" role="alert">
          <ProblemText problem={props.error} />
        </span>
      )}
    </label>
  );
}
