/** Reward type names as the gateway accepts them (lower case, digits and underscores, up to 32). */
const REWARD_TYPE = /^[a-z][a-z0-9_]{0,31}$/;

export function splitRewardTypes(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).map((type) => type.trim()).filter((type) => type.length > 0))];
}

export function rewardTypeProblems(types: readonly string[]): string[] {
  return types.filter((type) => !REWARD_TYPE.test(type)).map((type) => `${type} is not a reward type name (lower-case letters, digits and _, starting with a letter)`);
}

/** Partner logins as the gateway accepts them. */
export const LOGIN_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._@-]{2,63}$/;
