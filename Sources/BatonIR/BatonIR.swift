// BatonIR: placeholder until its issue lands.
