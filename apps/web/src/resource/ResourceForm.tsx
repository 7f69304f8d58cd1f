import { Fragment, useMemo, useState } from 'react';
import { Alert, App, Button, Card, Form, Result, Spin, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { useAppStore } from '../lib/appStore.ts';
import { HttpError, http } from '../lib/http.ts';
import { errorMessage } from './errorMessage.ts';
import { FormField, type FieldSpec, type FormContext } from './FormField.tsx';
import { mapFormErrors } from './formErrors.ts';
import { cloneOf, seedOptions, toFormValues, toPayload } from './formValues.ts';
import { useResourcePaths } from './resourcePaths.ts';
import { detailUrl } from './resourceUrl.ts';
import { useResourceMeta } from './useResourceMeta.ts';
import { useResourceObject } from './useResourceObject.ts';
import type { FieldMetaMap, ResourceObject } from './types.ts';
import { objectName } from './values.ts';
import { ENCRYPTED_FIELDS, encryptFields } from './secrets.ts';
import styles from './resource.module.css';

type Values = Record<string, unknown>;

export interface FormGroup {
  /** i18n key of the group heading. */
  title: string;
  fields: string[];
}

export interface ResourceFormProps {
  /** The collection URL: POST here, PUT `<url><id>/`. */
  url: string;
  /** Set on update routes. */
  id?: string;
  groups: FormGroup[];
  fieldsMeta?: Record<string, FieldSpec>;
  /** Values of a new object; a function gets the page's query (e.g. `?node_id=` from a list filtered by a node). */
  initial?: Values | ((query: URLSearchParams) => Values);
  /** Last change of the body before encryption and sending. */
  cleanValues?(values: Values, ctx: FormContext): Values;
  encryptedFields?: string[];
  /** Adjusts the loaded values (update, clone) before they fill the form, e.g. a structured list field. */
  afterGetFormValue?(values: Values, object: ResourceObject | undefined): Values;
  /** Where to go after a save (default the list); e.g. back to the detail page. */
  successRoute?(saved: ResourceObject, ctx: FormContext): string;
}

/**
 * The create/update page body: field groups over `actions.POST|PUT`,
 * POST on create and PUT on update, clone_from, 400 errors on their fields, then back to the list.
 */
export function ResourceForm({
  url,
  id,
  groups,
  fieldsMeta = {},
  initial,
  cleanValues,
  encryptedFields = ENCRYPTED_FIELDS,
  successRoute,
  afterGetFormValue,
}: ResourceFormProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const paths = useResourcePaths();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const cloneFrom = id ? null : params.get('clone_from');
  const isRootOrg = useAppStore((s) => s.currentOrg?.id === ROOT_ORG_ID);
  const hasValidLicense = useAppStore((s) =>
    Boolean(s.publicSettings?.XPACK_ENABLED && s.publicSettings.XPACK_LICENSE_IS_VALID),
  );
  const ctx: FormContext = { isCreate: !id, isUpdate: Boolean(id), isRootOrg, hasValidLicense };

  const meta = useResourceMeta(url);
  const source = useResourceObject(url, id ?? cloneFrom);
  const writeMeta: FieldMetaMap = useMemo(() => {
    const actions = meta.data?.actions;
    return (id ? (actions?.PUT ?? actions?.POST) : actions?.POST) ?? {};
  }, [meta.data, id]);

  const [form] = Form.useForm<Values>();
  const watched = (Form.useWatch((v: Values) => v, form) ?? {}) as Values;
  const [topErrors, setTopErrors] = useState<string[]>([]);
  const [submitting, setSubmitting] = useState(false);

  const object: ResourceObject | undefined = useMemo(() => {
    if (!source.data) return undefined;
    return cloneFrom ? cloneOf(source.data, t('resource.form.cloneFrom')) : source.data;
  }, [source.data, cloneFrom, t]);

  const allFields = groups.flatMap((g) => g.fields);
  const editable = (f: string) => Boolean(writeMeta[f] && !writeMeta[f].read_only);
  const visible = (f: string) => editable(f) && !fieldsMeta[f]?.hidden?.(watched, ctx);

  const initialValues = useMemo(
    () => {
      const values = {
        ...toFormValues(undefined, writeMeta, allFields),
        ...(typeof initial === 'function' ? initial(params) : initial),
        ...(object ? toFormValues(object, writeMeta, allFields) : {}),
      };
      return afterGetFormValue ? afterGetFormValue(values, object) : values;
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- allFields and initial are declarations, fixed per page
    [writeMeta, object],
  );
  const seeds = useMemo(() => seedOptions(object, writeMeta), [object, writeMeta]);

  if (meta.isPending || ((id || cloneFrom) && source.isPending)) return <Spin />;
  const loadError = meta.error ?? source.error;
  if (loadError) {
    const lost = loadError instanceof HttpError && loadError.status === 404;
    return (
      <Result status={lost ? '404' : 'error'} title={lost ? t('resource.detail.lost') : errorMessage(loadError, t)} />
    );
  }

  const submit = async (stay: boolean) => {
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const shown = allFields.filter(visible);
    let body = toPayload(Object.fromEntries(shown.filter((f) => f in values).map((f) => [f, values[f]])), writeMeta);
    if (cleanValues) body = cleanValues(body, ctx);
    body = await encryptFields(body, encryptedFields);
    setSubmitting(true);
    setTopErrors([]);
    try {
      const saved = id
        ? await http.put<ResourceObject>(detailUrl(url, id), body)
        : await http.post<ResourceObject>(url, body);
      await queryClient.invalidateQueries({ queryKey: ['resource-list'] });
      const name = objectName(saved?.name ?? saved?.hostname ?? body.name ?? '');
      const link = paths && saved?.id ? <a onClick={() => navigate(paths.detail(saved.id))}>{name}</a> : name;
      void message.success(
        <span data-testid="form-success">
          {link} {t(id ? 'resource.form.updated' : 'resource.form.created')}
        </span>,
      );
      if (stay) form.resetFields();
      else if (successRoute && saved) setTimeout(() => navigate(successRoute(saved, ctx)), 100);
      else if (paths) setTimeout(() => navigate(`${paths.list}?order=-date_updated`), 100);
    } catch (e) {
      if (e instanceof HttpError && e.status === 400) {
        const mapped = mapFormErrors(e.data, shown, (f) => writeMeta[f]?.label);
        form.setFields(mapped.fields);
        setTopErrors(mapped.nonField);
        if (mapped.fields[0]) form.scrollToField(mapped.fields[0].name);
      } else setTopErrors([errorMessage(e, t)]);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Card data-testid="resource-form">
      {topErrors.length > 0 && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          title={topErrors.map((m, i) => (
            <div key={i}>{m}</div>
          ))}
          data-testid="form-errors"
        />
      )}
      <Form
        form={form}
        layout="horizontal"
        labelCol={{ span: 4 }}
        wrapperCol={{ span: 14 }}
        initialValues={initialValues}
        scrollToFirstError
      >
        {groups.map((g) => {
          const fields = g.fields.filter(visible);
          if (!fields.length) return null;
          return (
            <Fragment key={g.title}>
              <Typography.Title level={5} className={styles.formGroup}>
                {t(g.title)}
              </Typography.Title>
              {fields.map((f) => (
                <FormField key={f} name={f} meta={writeMeta[f]!} spec={fieldsMeta[f]} seed={seeds[f]} />
              ))}
            </Fragment>
          );
        })}
        <Form.Item wrapperCol={{ offset: 4, span: 14 }}>
          <div className={styles.formActions}>
            {id && (
              <Button
                onClick={() => {
                  form.resetFields();
                  setTopErrors([]);
                }}
              >
                {t('resource.form.reset')}
              </Button>
            )}
            {!id && (
              <Button loading={submitting} onClick={() => void submit(true)}>
                {t('resource.form.saveAndContinue')}
              </Button>
            )}
            <Button type="primary" loading={submitting} onClick={() => void submit(false)}>
              {t('resource.form.submit')}
            </Button>
          </div>
        </Form.Item>
      </Form>
    </Card>
  );
}
