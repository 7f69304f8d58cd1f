import { useState } from 'react';
import { Alert, App, Checkbox, Form, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { HttpError, http } from '../lib/http.ts';
import { errorMessage } from './errorMessage.ts';
import { FormField, type FieldSpec } from './FormField.tsx';
import { mapFormErrors, messagesOf } from './formErrors.ts';
import { toFormValues, toPayload } from './formValues.ts';
import { ENCRYPTED_FIELDS, encryptFields } from './secrets.ts';
import { useResourceMeta } from './useResourceMeta.ts';
import type { ResourceObject } from './types.ts';

export interface BulkUpdateDialogProps {
  open: boolean;
  url: string;
  rows: ResourceObject[];
  /** The fields offered in the checklist. */
  fields: string[];
  fieldsMeta?: Record<string, FieldSpec>;
  onClose(saved: boolean): void;
}

/** "Select properties" then `PATCH <url> [{id, ...checked fields}]` for every selected row. */
export function BulkUpdateDialog({ open, url, rows, fields, fieldsMeta = {}, onClose }: BulkUpdateDialogProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const meta = useResourceMeta(url, { enabled: open });
  const write = meta.data?.actions?.PUT ?? meta.data?.actions?.POST ?? {};
  const offered = fields.filter((f) => write[f] && !write[f].read_only);
  const [checked, setChecked] = useState<string[]>([]);
  const [errors, setErrors] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm();

  const submit = async () => {
    const values = (await form.validateFields()) as Record<string, unknown>;
    const body = await encryptFields(
      toPayload(Object.fromEntries(checked.map((f) => [f, values[f] ?? null])), write),
      ENCRYPTED_FIELDS,
    );
    setSaving(true);
    setErrors([]);
    try {
      await http.patch(
        url,
        rows.map((r) => ({ id: r.id, ...body })),
      );
      void message.success(t('resource.bulkUpdate.success'));
      setChecked([]);
      form.resetFields();
      onClose(true);
    } catch (e) {
      if (e instanceof HttpError && e.status === 400) {
        const perRow = Array.isArray(e.data)
          ? e.data.map((x, i) => ({ row: rows[i], msgs: messagesOf(x) })).filter((x) => x.msgs.length)
          : [];
        if (perRow.length > 1 || (perRow.length === 1 && rows.length > 1)) {
          // Several rows: say which row was refused and why (the others were not changed either).
          setErrors(perRow.map((x) => `${x.row?.name ?? x.row?.id ?? ''}: ${x.msgs.join(' ')}`));
        } else {
          const first = Array.isArray(e.data) ? e.data.find((x) => messagesOf(x).length) : e.data;
          const mapped = mapFormErrors(first, checked, (f) => write[f]?.label);
          form.setFields(mapped.fields);
          setErrors(mapped.nonField);
        }
      } else setErrors([errorMessage(e, t)]);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('resource.bulkUpdate.title', { count: rows.length })}
      onCancel={() => onClose(false)}
      onOk={() => void submit()}
      okButtonProps={{ disabled: checked.length === 0, loading: saving }}
      okText={t('resource.ok')}
      cancelText={t('resource.cancel')}
      width="60%"
      destroyOnHidden
    >
      {errors.length > 0 && (
        <Alert
          type="error"
          showIcon
          title={
            errors.length > 1 ? (
              <ul data-testid="bulk-row-errors" style={{ margin: 0, paddingLeft: 16 }}>
                {errors.map((x, i) => (
                  <li key={i}>{x}</li>
                ))}
              </ul>
            ) : (
              errors[0]
            )
          }
          style={{ marginBottom: 12 }}
        />
      )}
      <Form.Item label={t('resource.bulkUpdate.select')}>
        <Checkbox.Group
          value={checked}
          onChange={(v) => setChecked(v as string[])}
          options={offered.map((f) => ({ value: f, label: write[f]!.label ?? f }))}
        />
      </Form.Item>
      <Form
        form={form}
        layout="horizontal"
        labelCol={{ span: 5 }}
        wrapperCol={{ span: 17 }}
        initialValues={toFormValues(undefined, write, offered)}
      >
        {offered
          .filter((f) => checked.includes(f))
          .map((f) => (
            <FormField key={f} name={f} meta={write[f]!} spec={fieldsMeta[f]} />
          ))}
      </Form>
    </Modal>
  );
}
