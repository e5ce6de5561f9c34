/**
 * E.164, the only phone number format the service takes: a plus, a country code that does not
 * start with 0, at most 15 digits in all. Numbers are assigned (operator) and texted (sms) so.
 */
export const E164 = /^\+[1-9]\d{6,14}$/;
