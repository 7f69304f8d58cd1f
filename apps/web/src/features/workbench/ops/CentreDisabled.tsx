import { Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** What every job centre page shows while the centre is off (`SECURITY_COMMAND_EXECUTION` false). */
export function CentreDisabled() {
  const { t } = useTranslation();
  return (
    <Result
      status="warning"
      title={t('jobs.disabled.title')}
      subTitle={t('jobs.disabled.text')}
      data-testid="centre-disabled"
    />
  );
}
