import { useEffect } from 'react';
import { message, Modal, notification } from 'antd';
import type { useAppProps } from 'antd/es/app/context';

/** antd's message, notification and modal hooks with their holders (loaded by `LazyApp.tsx` on first use). */
export default function FeedbackHolder({ onReady }: { onReady: (apis: useAppProps) => void }) {
  const [messageApi, messageHolder] = message.useMessage();
  const [notificationApi, notificationHolder] = notification.useNotification();
  const [modalApi, modalHolder] = Modal.useModal();
  useEffect(
    () => onReady({ message: messageApi, notification: notificationApi, modal: modalApi }),
    [onReady, messageApi, notificationApi, modalApi],
  );
  return (
    <>
      {modalHolder}
      {messageHolder}
      {notificationHolder}
    </>
  );
}
