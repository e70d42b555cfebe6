// BatonSchema: placeholder until its issue lands.
