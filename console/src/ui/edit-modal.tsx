import { Modal, type ModalProps } from '@mantine/core';

/**
 * A dialog holding a form or a once-shown secret: a click beside it does not close it, so a slip
 * of the mouse loses neither what was typed nor a secret not yet copied. Escape, its close button
 * and Cancel still do: those are meant.
 */
export function EditModal(props: ModalProps) {
  return <Modal closeOnClickOutside={false} {...props} />;
}
