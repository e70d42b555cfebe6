// BatonConfig: placeholder until its issue lands.
