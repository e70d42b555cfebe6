// BatonCodegenSwift: placeholder until its issue lands.
