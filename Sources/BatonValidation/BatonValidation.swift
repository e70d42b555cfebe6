// BatonValidation: placeholder until its issue lands.
