// French: the PLC connection wizard (/wizard_com), loaded with it.
import type { NamespaceWizardTranslation } from '../../i18n-types.ts';

const fr_wizard = {
  progress: 'Étapes',
  stepTitle: 'Étape {n} sur {count}\u00a0: {name}',
  steps: {
    mode: 'Mode',
    iface: 'Interface',
    params: 'Paramètres de l’interface',
    tcp: 'Port d’écoute TCP',
    modbus: 'Port d’écoute Modbus',
    gateway: 'Passerelle Modbus',
    rules: 'Règles de restriction',
    finish: 'Fin',
  },
  notes: {
    mode: 'Simple configure une interface avec un port TCP. Avancé ajoute la passerelle Modbus/TCP et les restrictions de la zone DT.',
    iface: 'L’interface à laquelle l’automate est raccordé.',
    params: 'Les paramètres de cette interface, comme sur la page COM.',
    tcp: 'Les clients atteignent l’automate par ce port (9094 par défaut).',
    modbus: 'Le port de la passerelle Modbus/TCP (standard Modbus 502)\u00a0; utilisé si vous choisissez une passerelle à l’étape suivante.',
    gateway: 'Un second port qui traduit le Modbus/TCP pour l’automate, par la même interface ou une autre.',
    rules: 'Les données de l’automate que les clients peuvent lire ou écrire.',
    finish: 'Vérifiez les paramètres. Terminer enregistre ensemble les paramètres COM et Port.',
  },
  modes: { simple: 'Simple', advanced: 'Avancé' },
  modeHints: {
    simple: 'Une interface et un port TCP\u00a0; chaque zone de l’automate, DT comprise, est autorisée ou non en entier.',
    advanced: 'En plus une passerelle Modbus/TCP et des restrictions de plages d’adresses DT.',
  },
  isEnabled: 'activée, {protocol}',
  isDisabled: 'non activée',
  enables: 'L’assistant active {name}.',
  internal: 'INTERNAL n’a pas d’autres paramètres\u00a0: la mémoire propre de l’appareil, toujours en Modbus.',
  tcpPort: 'Port d’écoute TCP',
  modbusPort: 'Port d’écoute Modbus',
  gateways: { none: 'Pas de passerelle', same: 'Même interface', other: 'Nouvelle interface' },
  gatewayHints: {
    none: 'Seulement le port TCP.',
    same: 'La passerelle utilise aussi {name}.',
    other: 'La passerelle utilise une autre interface, activée avec ses paramètres ci-dessous.',
  },
  gatewayIface: 'Interface de la passerelle',
  layout:
    'Plan Modbus sur le port {port}\u00a0: les registres de maintien 0\u00a0–\u00a065535 sont DT0\u00a0–\u00a0DT65535\u00a0; les bobines à partir de 0 sont les relais Y (la bobine 16·n + b est le bit b de WY n)\u00a0; les bobines à partir de {r} sont de même les relais R de WR.',
  rules: { read: 'Tout autoriser en lecture', write: 'Tout autoriser en écriture', individual: 'Individuel' },
  ruleHints: {
    read: 'Chaque zone de l’automate peut être lue, aucune ne peut être écrite.',
    write: 'Chaque zone de l’automate peut être lue et écrite.',
    individual: 'Seulement les zones que vous saisissez (sans zone DT en mode simple).',
    individualDt: 'Seulement les zones que vous saisissez, zone DT comprise.',
  },
  entry: '{area} {start}\u00a0–\u00a0{end}\u00a0: {rights}',
  gatewayWhole:
    'La passerelle accorde les mêmes droits sur DT0\u00a0–\u00a0DT65535 (registres de maintien) et sur les relais WY et WR (bobines à partir de 0 et de {r}).',
  gatewayIndividual:
    'Sur la passerelle, les entrées DT sont des registres de maintien à leur propre adresse (jusqu’à DT65535), les entrées WY des bobines à partir de 0 et les entrées WR des bobines à partir de {r} (16 par mot)\u00a0; les autres zones ne sont pas accessibles en Modbus.',
  summary: { mode: 'Mode', iface: 'Interface', gateway: 'Passerelle Modbus', rules: 'Restrictions', entries: 'Individuel (entrées\u00a0: {count})' },
  overwrite: 'Terminer écrase les paramètres COM et Port actuels.',
  failed: 'Une erreur s’est produite.',
  back: 'Retour',
  continue: 'Continuer',
  finish: 'Terminer',
  cancel: 'Annuler',
  cancelTitle: 'Quitter l’assistant',
  cancelText: 'Vos saisies dans l’assistant sont abandonnées\u00a0; les paramètres restent tels quels.',
  discard: 'Abandonner les saisies',
  stay: 'Rester dans l’assistant',
} satisfies NamespaceWizardTranslation;

export default fr_wizard;
