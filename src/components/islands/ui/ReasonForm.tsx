import { useId } from 'react';

interface Props {
  label: string;
  value: string;
  /** The reason's problem (shown below it, the box marked invalid), or null. */
  error: string | null;
  max: number;
  hint?: string;
  submitLabel: string;
  cancelLabel: string;
  busy: boolean;
  submitTestId?: string;
  onChange: (value: string) => void;
  onSubmit: () => void;
  onCancel: () => void;
}

/** A staff decision's reason (a rejection, a request for changes): the text, its problem, confirm and cancel. */
export function ReasonForm(props: Props) {
  const id = useId();
  return (
    <form
      className="flex flex-col gap-2"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        props.onSubmit();
      }}
    >
      <label htmlFor={id} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {props.label}
      </label>
      <textarea
        id={id}
        value={props.value}
        rows={3}
        maxLength={props.max}
        placeholder={props.hint}
        aria-invalid={props.error ? true : undefined}
        onChange={(event) => props.onChange(event.target.value)}
        className="w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm focus:border-accent focus:outline-none dark:border-zinc-600 dark:bg-zinc-900"
      />
      {props.error && (
        <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">
          {props.error}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className="hk-btn hk-btn-primary" disabled={props.busy} data-testid={props.submitTestId}>
          {props.submitLabel}
        </button>
        <button type="button" className="hk-btn hk-btn-ghost" onClick={props.onCancel}>
          {props.cancelLabel}
        </button>
      </div>
    </form>
  );
}
