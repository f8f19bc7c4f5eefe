import { ColorInput, NumberInput, Select, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { ControlProps } from './control-props';
import type { FormField } from './form-model';
import { formatNumbers, localToSeconds, numberOrText, parseNumbers, secondsToLocal } from './form-values';
import { IconField } from './icon-field';
import { ListField, ObjectField, PairField } from './list-field';

const NOT_SET = '';

/** The label, help and problem every control shows, the problem under its field. */
function wrapperOf(
  { field, path, problems, label }: ControlProps,
  local?: string,
): { label: string; description: string | undefined; error: string | undefined; withAsterisk: boolean } {
  return {
    label: label ?? field.label,
    description: field.help,
    error: local ?? problems.get(path),
    withAsterisk: field.required,
  };
}

const text = (value: unknown) =>
  typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
/** An empty text: out of the data when optional, an empty string when required (so the API says why). */
const emptied = (field: FormField, typed: string) => (typed === '' && !field.required ? undefined : typed);

/** A number typed in; what is not a number yet stays in the field (with its problem) until it is one. */
function NumberField(props: ControlProps) {
  const { field, value, onChange, disabled } = props;
  const [typed, setTyped] = useState<string | null>(null);
  return (
    <NumberInput
      {...wrapperOf(props, typed === null ? undefined : 'Must be a number')}
      value={typed ?? (typeof value === 'number' ? value : NOT_SET)}
      min={field.min}
      max={field.max}
      allowDecimal={field.kind !== 'integer'}
      disabled={disabled}
      onChange={(next) => {
        if (typeof next === 'number') {
          setTyped(null);
          onChange(next);
        } else if (next === '') {
          setTyped(null);
          onChange(undefined);
        } else setTyped(String(next));
      }}
    />
  );
}

/** A line of numbers; text that does not read as one stays, said, until it does. */
function NumbersField(props: ControlProps) {
  const { field, value, onChange, disabled } = props;
  const [typed, setTyped] = useState<string | null>(null);
  const parsed = typed === null ? null : parseNumbers(typed, field.nullable ?? false);
  return (
    <TextInput
      {...wrapperOf(
        props,
        typed !== null && parsed === null ? 'Only numbers, separated by commas' : undefined,
      )}
      description={field.help ?? 'Numbers separated by commas'}
      value={typed ?? formatNumbers(value)}
      disabled={disabled}
      onChange={(event) => {
        const next = event.currentTarget.value;
        setTyped(next);
        const numbers = parseNumbers(next, field.nullable ?? false);
        if (numbers) onChange(numbers.length === 0 && !field.required ? undefined : numbers);
      }}
      onBlur={() => parsed !== null && setTyped(null)}
    />
  );
}

function ChoiceField(props: ControlProps) {
  const { field, value, onChange, disabled } = props;
  const choices = field.choices ?? [];
  const data = choices.map((choice) => ({ value: JSON.stringify(choice.value), label: choice.label }));
  const current = choices.some((choice) => choice.value === value) ? JSON.stringify(value) : null;
  return (
    <Select
      {...wrapperOf(props)}
      data={data}
      value={current}
      placeholder={field.required ? 'Pick one' : 'As the widget chooses'}
      clearable={!field.required}
      allowDeselect={!field.required}
      disabled={disabled}
      onChange={(next) => onChange(next === null ? undefined : JSON.parse(String(next)))}
    />
  );
}

/** One field of a variant's data, drawn by what it is (form-model.ts). */
export function FieldControl(props: ControlProps) {
  const { field, value, onChange, disabled } = props;
  switch (field.kind) {
    case 'number':
    case 'integer':
      return <NumberField {...props} />;
    case 'numbers':
      return <NumbersField {...props} />;
    case 'number-or-text':
      return (
        <TextInput
          {...wrapperOf(props)}
          value={text(value)}
          disabled={disabled}
          onChange={(event) => {
            const typed = event.currentTarget.value;
            onChange(typed === '' && !field.required ? undefined : numberOrText(typed));
          }}
        />
      );
    case 'boolean':
      return (
        <ChoiceField
          {...props}
          field={{
            ...field,
            choices: [
              { value: true, label: 'Yes' },
              { value: false, label: 'No' },
            ],
          }}
        />
      );
    case 'choice':
      return <ChoiceField {...props} />;
    case 'color':
      return (
        <ColorInput
          {...wrapperOf(props)}
          value={text(value)}
          format="hex"
          withEyeDropper={false}
          disabled={disabled}
          onChange={(next) => onChange(emptied(field, next))}
        />
      );
    case 'icon':
      return <IconField {...props} />;
    case 'datetime':
      return (
        <TextInput
          {...wrapperOf(props)}
          type="datetime-local"
          value={secondsToLocal(value)}
          disabled={disabled}
          onChange={(event) => onChange(localToSeconds(event.currentTarget.value))}
        />
      );
    case 'date':
      return (
        <TextInput
          {...wrapperOf(props)}
          type="date"
          value={text(value)}
          disabled={disabled}
          onChange={(event) => onChange(emptied(field, event.currentTarget.value))}
        />
      );
    case 'longtext':
      return (
        <Textarea
          {...wrapperOf(props)}
          value={text(value)}
          autosize
          minRows={2}
          maxRows={10}
          disabled={disabled}
          onChange={(event) => onChange(emptied(field, event.currentTarget.value))}
        />
      );
    case 'text':
    case 'url':
      return (
        <TextInput
          {...wrapperOf(props)}
          type={field.kind === 'url' ? 'url' : 'text'}
          value={text(value)}
          disabled={disabled}
          onChange={(event) => onChange(emptied(field, event.currentTarget.value))}
        />
      );
    case 'list':
      return <ListField {...props} Control={FieldControl} />;
    case 'object':
      return <ObjectField {...props} Control={FieldControl} />;
    case 'pair':
      return <PairField {...props} />;
    case 'json':
      return <JsonField {...props} />;
  }
}

/** A field no control fits (a union of lists): its JSON, kept as typed until it reads. */
function JsonField(props: ControlProps) {
  const { value, onChange, disabled } = props;
  const [typed, setTyped] = useState<string | null>(null);
  let broken = false;
  if (typed !== null) {
    try {
      JSON.parse(typed);
    } catch {
      broken = true;
    }
  }
  return (
    <Textarea
      {...wrapperOf(props, broken ? 'Not JSON yet' : undefined)}
      description={props.field.help ?? 'As JSON'}
      value={typed ?? (value === undefined ? '' : JSON.stringify(value))}
      autosize
      minRows={1}
      maxRows={6}
      ff="monospace"
      disabled={disabled}
      onChange={(event) => {
        const next = event.currentTarget.value;
        setTyped(next);
        if (next.trim() === '') return onChange(undefined);
        try {
          onChange(JSON.parse(String(next)));
        } catch {
          // Kept in the field, said under it, until it reads.
        }
      }}
    />
  );
}
