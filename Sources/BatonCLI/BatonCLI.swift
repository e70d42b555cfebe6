// BatonCLI: placeholder until its issue lands.
