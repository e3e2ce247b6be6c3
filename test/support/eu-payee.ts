// An EU customer in an SCA region and the payee she trusts, as the SCA and beneficiary-trust scenarios use them.

/** Marie: an individual in France (an SCA region) holding EUR, with every field her provider asks for. */
export const MARIE = {
  customerType: 'INDIVIDUAL' as const, platformCustomerId: 'marie', fullName: 'Marie Curie', birthDate: '1867-11-07', nationality: 'FR',
  email: 'marie@example.com', phoneNumber: '+33612345678', currencies: ['EUR'],
  address: { line1: '36 Quai de Béthune', city: 'Paris', postalCode: '75004', country: 'FR' },
};

/** Pierre's French IBAN, as the account info of an external account. */
export const PIERRE_IBAN = {
  accountType: 'EUR_ACCOUNT' as const, iban: 'FR1420041010050500013M02606',
  beneficiary: { beneficiaryType: 'INDIVIDUAL' as const, fullName: 'Pierre Curie', countryOfResidence: 'FR' },
};
