import { text, translator, type I18nText } from '@gatehouse/contract';

/** Validation and framework messages (DRF's texts, the JumpServer API), in three languages. */
const M = {
  required: text('This field is required.', '该字段是必填项。', 'このフィールドは必須です。'),
  null: text('This field may not be null.', '该字段不能为 null。', 'このフィールドは null にできません。'),
  blank: text('This field may not be blank.', '该字段不能为空。', 'このフィールドは空白にできません。'),
  max_length: text(
    'Ensure this field has no more than {n} characters.',
    '请确保这个字段不能超过 {n} 个字符。',
    'このフィールドは {n} 文字以下にしてください。',
  ),
  invalid_email: text(
    'Enter a valid email address.',
    '请输入合法的邮件地址。',
    '有効なメールアドレスを入力してください。',
  ),
  invalid_choice: text(
    '"{value}" is not a valid choice.',
    '“{value}” 不是合法选项。',
    '"{value}" は有効な選択肢ではありません。',
  ),
  invalid_bool: text('Must be a valid boolean.', '必须是合法的布尔值。', '有効なブール値である必要があります。'),
  invalid_int: text('A valid integer is required.', '请填写合法的整数值。', '有効な整数が必要です。'),
  min_value: text(
    'Ensure this value is greater than or equal to {n}.',
    '请确保该值大于或者等于 {n}。',
    'この値は {n} 以上にしてください。',
  ),
  max_value: text(
    'Ensure this value is less than or equal to {n}.',
    '请确保该值小于或者等于 {n}。',
    'この値は {n} 以下にしてください。',
  ),
  invalid_datetime: text(
    'Datetime has wrong format. Use one of these formats instead: YYYY/MM/DD hh:mm:ss +HHMM, YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
    '日期时间格式错误。请从这些格式中选择：YYYY/MM/DD hh:mm:ss +HHMM, YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]。',
    '日時の形式が間違っています。次のいずれかの形式を使用してください: YYYY/MM/DD hh:mm:ss +HHMM, YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]。',
  ),
  invalid_json: text('Not a valid json format', '不是合法的 JSON 格式', '有効な JSON 形式ではありません'),
  not_a_list: text(
    'Expected a list of items but got type "{type}".',
    '期望为一个包含物件的列表，得到的类型是“{type}”。',
    'アイテムのリストが必要ですが、"{type}" 型を受け取りました。',
  ),
  not_a_dict: text(
    'Invalid data. Expected a dictionary, but got {type}.',
    '无效数据。期待为字典类型，得到的是 {type} 。',
    '無効なデータです。辞書が必要ですが、{type} を受け取りました。',
  ),
  invalid_pk: text(
    'Invalid pk "{pk}" - object does not exist.',
    '无效主键 “{pk}” － 对象不存在。',
    '無効な pk "{pk}" - オブジェクトは存在しません。',
  ),
  incorrect_type: text(
    'Incorrect type. Expected pk value, received {type}.',
    '类型错误。期望为主键，得到的类型为 {type}。',
    '型が正しくありません。pk 値が必要ですが、{type} を受け取りました。',
  ),
  unique: text(
    '{model} with this {field} already exists.',
    '具有 {field} 的 {model} 已存在。',
    'この {field} を持つ {model} は既に存在します。',
  ),
  not_found: text('{model} object does not exist.', '{model} 对象不存在。', '{model} オブジェクトは存在しません。'),
  id_missing: text('id or pk not in data', '数据中缺少 id 或 pk', 'データに id または pk がありません'),
  save_in_org: text('Please save in a org', '请在组织内保存', '組織内で保存してください'),
  bulk_delete_needs_ids: text(
    'Bulk delete needs the selected rows (spm or ids).',
    '批量删除需要指定所选行（spm 或 ids）。',
    '一括削除には選択した行（spm または ids）が必要です。',
  ),
  referenced: text(
    'Is referenced by other objects and cannot be deleted',
    '被其他对象引用，无法删除',
    '他のオブジェクトから参照されているため削除できません',
  ),
  too_many_ids: text(
    'At most {max} ids can be given at once.',
    '一次最多只能提供 {max} 个 ID。',
    '一度に指定できる ID は最大 {max} 個です。',
  ),
  import_rows: text(
    'The file has more than {max} rows: split it into smaller files.',
    '文件超过 {max} 行：请拆分为更小的文件。',
    'ファイルの行数が {max} 行を超えています。小さなファイルに分割してください。',
  ),
  import_columns: text(
    'The file has more than {max} columns.',
    '文件超过 {max} 列。',
    'ファイルの列数が {max} 列を超えています。',
  ),
  import_cell: text(
    'Row {row} has a cell longer than {max} characters.',
    '第 {row} 行有超过 {max} 个字符的单元格。',
    '{row} 行目に {max} 文字を超えるセルがあります。',
  ),
  import_unzipped: text(
    'The file expands to more than {max} MB when unpacked: split it into smaller files.',
    '文件解压后超过 {max} MB：请拆分为更小的文件。',
    'ファイルは展開すると {max} MB を超えます。小さなファイルに分割してください。',
  ),
  file_empty: text(
    'Request file format may be wrong',
    '上传的文件格式错误 或 其它类型资源的文件',
    'リクエストファイルの形式が間違っている可能性があります',
  ),
  action_not_allowed: text('Action not allowed: {action}', '不允许的操作：{action}', '許可されていない操作: {action}'),
  not_supported_yet: text(
    'This field is not supported by this server yet: leave it out or send it empty.',
    '本服务器暂不支持该字段：请省略该字段或传空值。',
    'このフィールドはこのサーバーではまだサポートされていません。省略するか空の値を送信してください。',
  ),
  yes: text('Yes', '是', 'はい'),
  no: text('No', '否', 'いいえ'),
} satisfies Record<string, I18nText>;

export type ResourceMessage = keyof typeof M;

export const rt = translator(M);
