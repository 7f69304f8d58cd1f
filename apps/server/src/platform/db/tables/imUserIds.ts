/** The users' ids in the company messengers (migration 1700, modules/authentication/im/). */
export interface ImUserIdTables {
  users_user: {
    wecom_id: string | null;
    dingtalk_id: string | null;
    feishu_id: string | null;
  };
}
