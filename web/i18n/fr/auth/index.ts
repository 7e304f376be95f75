// French: the login and first-run pages.
import type { NamespaceAuthTranslation } from '../../i18n-types.ts';

const fr_auth = {
  loginTitle: 'Connexion',
  setupTitle: 'Créer l’administrateur',
  setupIntro:
    'Cet appareil n’a encore aucun utilisateur. Choisissez le nom et le mot de passe de l’administrateur. Conservez le mot de passe en lieu sûr : personne ne pourra le relire.',
  username: 'Nom d’utilisateur',
  password: 'Mot de passe',
  repeat: 'Confirmer le mot de passe',
  passwordRule: '8 à 40 caractères, dont une majuscule, une minuscule, un chiffre et un caractère spécial.',
  login: 'Se connecter',
  create: 'Créer et se connecter',
  mismatch: 'Les deux mots de passe sont différents.',
  required: 'Le nom d’utilisateur et le mot de passe sont obligatoires.',
  locked: 'Trop d’échecs de connexion. Réessayez dans {minutes} minute{{s}}.',
  expired: 'Votre session a expiré. Veuillez vous reconnecter.',
} satisfies NamespaceAuthTranslation;

export default fr_auth;
