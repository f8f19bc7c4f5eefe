// The salvage is part of the bridge contract (the preload and the web player's client apply it
// where a state enters the renderer); the App applies it once more to what a bridge hands it.
export { dropBadItems } from '../../../src/shared/bridge-salvage';
