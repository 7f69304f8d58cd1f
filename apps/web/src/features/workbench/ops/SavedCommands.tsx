import { useState } from 'react';
import { Alert, Button, Input, Modal, Select } from 'antd';
import { SaveOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useAction } from '../../../resource/useAction.ts';
import { choiceValue, jobsApi, rowsOf, type Adhoc } from './jobsApi.ts';

/**
 * The user's saved commands (`ops/adhocs/`): pick one to fill the command and its module, or save
 * the current command under a name.
 */
export function SavedCommands({
  module,
  args,
  onPick,
}: {
  module: string;
  args: string;
  onPick(a: { module: string; args: string }): void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [listOpen, setListOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const [name, setName] = useState('');
  const save = useAction({ inlineError: true });
  const adhocs = useQuery({
    queryKey: ['ops', 'adhocs'],
    queryFn: () => jobsApi.adhocs().then(rowsOf<Adhoc>),
    enabled: listOpen,
  });
  const byId = new Map((adhocs.data ?? []).map((a) => [a.id, a]));
  return (
    <>
      <Select
        style={{ width: 200 }}
        placeholder={t('jobs.quick.openSaved')}
        value={null}
        showSearch={{ optionFilterProp: 'label' }}
        loading={adhocs.isFetching}
        onOpenChange={(o) => o && setListOpen(true)}
        options={(adhocs.data ?? []).map((a) => ({ value: a.id, label: a.name }))}
        onChange={(id: string) => {
          const a = byId.get(id);
          if (a) onPick({ module: choiceValue(a.module), args: a.args });
        }}
        notFoundContent={t('jobs.quick.noSaved')}
        aria-label={t('jobs.quick.openSaved')}
        data-testid="saved-commands"
      />
      <Button
        icon={<SaveOutlined />}
        disabled={!args.trim()}
        onClick={() => setSaving(true)}
        data-testid="save-command"
      >
        {t('jobs.quick.saveCommand')}
      </Button>
      <Modal
        open={saving}
        title={t('jobs.quick.saveCommand')}
        okText={t('jobs.quick.save')}
        okButtonProps={{ disabled: !name.trim(), loading: save.busy }}
        onCancel={() => (setSaving(false), save.setError(null))}
        onOk={async () => {
          const ok = await save.run(
            () => jobsApi.saveAdhoc({ name: name.trim(), module, args }),
            t('jobs.quick.saved'),
          );
          if (!ok) return;
          setSaving(false);
          setName('');
          await queryClient.invalidateQueries({ queryKey: ['ops', 'adhocs'] });
        }}
      >
        {save.error && <Alert type="error" showIcon title={save.error} style={{ marginBottom: 12 }} />}
        <Input
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder={t('jobs.quick.commandName')}
          aria-label={t('jobs.quick.commandName')}
          maxLength={128}
        />
      </Modal>
    </>
  );
}
