/**
 * The largest id (and integer input) accepted anywhere: the largest value an integer column holds on
 * both databases, so a larger id cannot exist.
 */
export const MAX_ID = 2_147_483_647;
