import { useEffect, useRef, useState } from 'react';
import { Alert, App, Button, Form, Modal, Radio, Space, Upload } from 'antd';
import { InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { HttpError, http } from '../lib/http.ts';
import { errorMessage } from './errorMessage.ts';
import { download } from './exportUrl.ts';
import { importContentType, importFormat, renderToJsonUrl, templateHref, type ImportMode } from './importFile.ts';
import { encryptFields, SECRET_COLUMNS } from './secrets.ts';
import {
  buttonOf,
  counts,
  createImport,
  flattenRowError,
  press,
  rowBody,
  type ImportRow,
  type ImportState,
} from './importMachine.ts';
import { runImport } from './importRunner.ts';
import { ImportReviewTable } from './ImportReviewTable.tsx';
import { detailUrl } from './resourceUrl.ts';
import { cacheResources } from './spm.ts';
import type { ResourceObject } from './types.ts';

export interface ImportDialogProps {
  open: boolean;
  url: string;
  canCreate: boolean;
  canUpdate: boolean;
  selected: ResourceObject[];
  /** Called on close; the list reloads. */
  onClose(): void;
}

interface Parsed {
  title: [string, string][];
  data: Record<string, unknown>[];
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Import from CSV/XLSX: choose mode, upload, review, then send row by row. */
export function ImportDialog({ open, url, canCreate, canUpdate, selected, onClose }: ImportDialogProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [mode, setMode] = useState<ImportMode>(canCreate ? 'create' : 'update');
  const [fileError, setFileError] = useState<string>();
  const [parsing, setParsing] = useState(false);
  const [titles, setTitles] = useState<[string, string][]>([]);
  const [task, setTaskState] = useState<ImportState | null>(null);
  const taskRef = useRef<ImportState | null>(null);
  const running = useRef(false);
  const setTask = (s: ImportState | null) => {
    taskRef.current = s;
    setTaskState(s);
  };
  useEffect(
    () => () => {
      taskRef.current = null;
    },
    [],
  );

  const reset = () => {
    setTask(null);
    setTitles([]);
    setFileError(undefined);
  };
  const close = () => {
    reset();
    onClose();
  };

  const downloadTemplate = async (format: 'csv' | 'xlsx') => {
    const spm = mode === 'update' && selected.length ? await cacheResources(selected.map((r) => r.id)) : undefined;
    download(templateHref(url, mode, format, spm));
  };

  const parse = async (file: File) => {
    const format = importFormat(file);
    if (!format) {
      setFileError(t('resource.import.fileRule'));
      return;
    }
    setFileError(undefined);
    setParsing(true);
    try {
      const parsed = await http.post<Parsed>(renderToJsonUrl(url), file, {
        headers: { 'Content-Type': importContentType(format) },
      });
      setTitles(parsed.title);
      setTask(createImport(parsed.data));
    } catch (e) {
      setFileError(errorMessage(e, t));
    } finally {
      setParsing(false);
    }
  };

  const send = async (row: ImportRow) => {
    const body = await encryptFields(rowBody(row), SECRET_COLUMNS);
    if (mode === 'create') await http.post(url, body);
    else {
      if (!body.id) throw new Error(t('resource.import.missingId'));
      await http.patch(detailUrl(url, String(body.id)), body);
    }
  };

  const onButton = () => {
    const current = taskRef.current;
    if (!current) return;
    if (buttonOf(current) === 'finished') return close();
    const next = press(current);
    setTask(next);
    if (next.task !== 'started' || running.current) return;
    running.current = true;
    void runImport({
      get: () => taskRef.current ?? { task: 'stopped', rows: [] },
      set: (s) => {
        if (taskRef.current) setTask(s);
      },
      send,
      describeError: (e) =>
        e instanceof HttpError && e.status === 400
          ? flattenRowError(e.data, titles) || errorMessage(e, t)
          : errorMessage(e, t),
      sleep,
    }).finally(() => {
      running.current = false;
    });
  };

  const button = task ? buttonOf(task) : null;
  const failed = task?.task === 'done' && counts(task).error > 0;

  return (
    <Modal
      open={open}
      title={t('resource.import.title')}
      onCancel={close}
      width={task ? '80%' : '60%'}
      mask={{ closable: false }}
      footer={
        task ? (
          <Space>
            <Button onClick={reset} disabled={task.task === 'started'}>
              {t('resource.import.back')}
            </Button>
            <Button type="primary" onClick={onButton} data-testid="import-button">
              {t(`resource.import.${button}`)}
            </Button>
          </Space>
        ) : (
          <Button onClick={close}>{t('resource.cancel')}</Button>
        )
      }
    >
      {task ? (
        <>
          {failed && <Alert type="error" showIcon title={t('resource.import.hasErrors')} style={{ marginBottom: 8 }} />}
          <ImportReviewTable state={task} titles={titles} />
        </>
      ) : (
        <Form layout="horizontal" labelCol={{ span: 5 }} wrapperCol={{ span: 18 }}>
          <Form.Item label={t('resource.import.mode')}>
            <Radio.Group value={mode} onChange={(e) => setMode(e.target.value as ImportMode)}>
              <Radio value="create" disabled={!canCreate}>
                {t('resource.import.create')}
              </Radio>
              <Radio value="update" disabled={!canUpdate}>
                {t('resource.import.update')}
              </Radio>
            </Radio.Group>
          </Form.Item>
          <Form.Item
            label={t('resource.import.template')}
            extra={mode === 'update' ? t('resource.import.updateTip') : undefined}
          >
            <Space>
              <Button
                type="link"
                onClick={() => void downloadTemplate('csv').catch((e: unknown) => message.error(errorMessage(e, t)))}
                data-testid="template-csv"
              >
                CSV
              </Button>
              <Button
                type="link"
                onClick={() => void downloadTemplate('xlsx').catch((e: unknown) => message.error(errorMessage(e, t)))}
                data-testid="template-xlsx"
              >
                Excel
              </Button>
            </Space>
          </Form.Item>
          <Form.Item
            label={t('resource.import.file')}
            validateStatus={fileError ? 'error' : undefined}
            help={fileError}
          >
            <Upload.Dragger
              accept=".csv,.xlsx"
              maxCount={1}
              showUploadList={false}
              disabled={parsing}
              beforeUpload={(file) => {
                void parse(file);
                return false;
              }}
            >
              <p className="ant-upload-drag-icon">
                <InboxOutlined />
              </p>
              <p className="ant-upload-text">{parsing ? t('resource.import.parsing') : t('resource.import.drop')}</p>
              <p className="ant-upload-hint">{t('resource.import.fileRule')}</p>
            </Upload.Dragger>
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
