import type { ComponentType } from 'react';
import type { FormField } from './form-model';
import type { ProblemMap } from './problems';

/** What every field's control is given. */
export interface ControlProps {
  field: FormField;
  value: unknown;
  /** The field's new value; undefined takes an optional field out of the data. */
  onChange: (value: unknown) => void;
  /** Where the field sits in the data, as the API names it (`bars.0.value`). */
  path: string;
  problems: ProblemMap;
  disabled: boolean;
  /** The label, when it differs from the field's own (an item of a list: "Bar 2"). */
  label?: string;
}

/**
 * A control of fields that hold fields (a list's items, an object's parts), given the control that
 * draws each of them (field-control.tsx's, which draws these in turn): passed in, so that the two
 * files need not import each other.
 */
export interface GroupProps extends ControlProps {
  Control: ComponentType<ControlProps>;
}
