// BatonCodegenKotlin: placeholder until its issue lands.
