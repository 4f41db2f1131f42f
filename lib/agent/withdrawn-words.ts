// A call whose tool the page changed or took away while the person was asked about it: the model is
// told so of "the user", the call's card tells the person so of "you".

/** When the tool went or changed, as the model reads it. */
export const whileAsked = 'while the user was being asked about this call';

/** Why a call's tool went or changed, in the person's words. */
export function withdrawnWords(toModel: string): string {
  return toModel.replace(whileAsked, 'while you were being asked about this call');
}
