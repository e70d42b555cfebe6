// BatonPlate: placeholder until its issue lands.
