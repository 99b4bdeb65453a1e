/** The portal's words in English and Russian; the browser's language chooses, and the header switches. */
export type Language = 'en' | 'ru';

const WORDS = {
  title: ['Partner portal', 'Портал партнёра'],
  signIn: ['Sign in with a passkey', 'Войти с ключом доступа'],
  signOut: ['Sign out', 'Выйти'],
  signOutEverywhere: ['Sign out everywhere', 'Выйти на всех устройствах'],
  invited: ['You are invited', 'Вас пригласили'],
  createPasskey: ['Create a passkey', 'Создать ключ доступа'],
  keys: ['Signing keys', 'Ключи подписи'],
  newKey: ['New public key (JWK)', 'Новый открытый ключ (JWK)'],
  overlapHours: ['Old keys keep working for (hours)', 'Старые ключи действуют ещё (часов)'],
  rotate: ['Rotate', 'Заменить'],
  overlapCredentialHours: ['The old certificate or password keeps working for (hours)', 'Старый сертификат или пароль действует ещё (часов)'],
  endsAt: ['ends', 'действует до'],
  calls: ['Your calls', 'Ваши запросы'],
  requestId: ['Request id', 'Идентификатор запроса'],
  find: ['Find', 'Найти'],
  noCalls: ['No calls found', 'Запросы не найдены'],
  webhooks: ['Webhook endpoints', 'Адреса уведомлений'],
  url: ['Endpoint URL', 'Адрес'],
  register: ['Register', 'Зарегистрировать'],
  deliveries: ['Deliveries', 'Доставки'],
  shownOnce: ['Shown once: keep it now', 'Показывается один раз: сохраните сейчас'],
  people: ['People', 'Сотрудники'],
  name: ['Name (e-mail)', 'Имя (e-mail)'],
  role: ['Role', 'Роль'],
  invite: ['Invite', 'Пригласить'],
  remove: ['Remove', 'Удалить'],
  link: ['Invitation link (single use, 72 hours)', 'Ссылка-приглашение (одноразовая, 72 часа)'],
  usage: ['Usage, 30 days', 'Использование за 30 дней'],
  settings: ['Settings', 'Настройки'],
  allowlist: ['IP allowlist (one address or CIDR per line)', 'Разрешённые IP-адреса (адрес или CIDR в строке)'],
  save: ['Save', 'Сохранить'],
  credentials: ['Client certificates and API password', 'Клиентские сертификаты и пароль API'],
  newCertificate: ['New client certificate (PEM)', 'Новый клиентский сертификат (PEM)'],
  rotateCertificate: ['Rotate certificate', 'Заменить сертификат'],
  rotatePassword: ['New API password', 'Новый пароль API'],
  rotateSecret: ['Rotate signing key', 'Заменить ключ подписи'],
  replay: ['Send the last day again', 'Отправить за сутки повторно'],
  readOnly: ['Your role reads; a partner-admin changes.', 'Ваша роль только читает; изменяет partner-admin.'],
} as const;

export type WordKey = keyof typeof WORDS;

export function wordsIn(language: Language): (key: WordKey) => string {
  return (key) => WORDS[key][language === 'ru' ? 1 : 0];
}

export function browserLanguage(): Language {
  return navigator.language.toLowerCase().startsWith('ru') ? 'ru' : 'en';
}
