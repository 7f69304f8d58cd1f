import { useState } from 'react';
import { Alert, Button, Input, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { http } from '../../../../lib/http.ts';
import { errorMessage } from '../../../../resource/errorMessage.ts';
import styles from './acls.module.css';

export interface CommandGroupDraft {
  type?: unknown;
  content?: unknown;
  ignore_case?: unknown;
}

interface TestResult {
  matched: boolean;
  text: string;
  pattern: string;
}

const valueOf = (v: unknown) => (v && typeof v === 'object' && 'value' in v ? (v as { value: unknown }).value : v);

/** "Test a command against this group": the server's matcher on the group as it is (saved or being edited). */
export function CommandTestBox({ group }: { group: CommandGroupDraft }) {
  const { t } = useTranslation();
  const [command, setCommand] = useState('');
  const [result, setResult] = useState<TestResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      setResult(
        await http.post<TestResult>('/api/v1/acls/command-groups/test/', {
          type: valueOf(group.type) ?? 'command',
          content: group.content ?? '',
          ignore_case: group.ignore_case ?? true,
          command,
        }),
      );
    } catch (e) {
      setResult(null);
      setError(errorMessage(e, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div data-testid="command-test">
      <Typography.Text strong>{t('acls.command.testTitle')}</Typography.Text>
      <Space.Compact style={{ width: '100%', marginTop: 4 }}>
        <Input
          aria-label={t('acls.command.testTitle')}
          placeholder={t('acls.command.testPlaceholder')}
          value={command}
          onChange={(e) => setCommand(e.target.value)}
          onPressEnter={(e) => {
            e.preventDefault();
            void run();
          }}
        />
        <Button onClick={() => void run()} loading={busy}>
          {t('acls.command.test')}
        </Button>
      </Space.Compact>
      <div className={styles.testResult} data-testid="command-test-result">
        {error && <Alert type="error" showIcon message={error} />}
        {result && (
          <Alert
            type={result.matched ? 'warning' : 'success'}
            showIcon
            message={result.matched ? t('acls.command.matched', { text: result.text }) : t('acls.command.notMatched')}
            description={
              <span>
                {t('acls.command.pattern')}: <Typography.Text code>{result.pattern}</Typography.Text>
              </span>
            }
          />
        )}
      </div>
    </div>
  );
}
