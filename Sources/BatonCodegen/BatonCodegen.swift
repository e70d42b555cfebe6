// BatonCodegen: placeholder until its issue lands.
