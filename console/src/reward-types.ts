import { LOGIN_REGEXP, REWARD_TYPE_REGEXP } from '@partner-gateway/contract/patterns';

export function splitRewardTypes(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).map((type) => type.trim()).filter((type) => type.length > 0))];
}

/** Reward type names as the gateway accepts them (the contract's pattern), each refusal worded for the form. */
export function rewardTypeProblems(types: readonly string[]): string[] {
  return types.filter((type) => !REWARD_TYPE_REGEXP.test(type)).map((type) => `${type} is not a reward type name (lower-case letters, digits and _, starting with a letter)`);
}

/** Partner logins as the gateway accepts them (the contract's pattern). */
export const LOGIN_PATTERN = LOGIN_REGEXP;
