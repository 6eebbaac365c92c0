"""Generate examples/company.ttl: a fictional corporate knowledge graph, the second example graph of kg2tool.

    python examples/make_company_graph.py                      # writes examples/company.ttl
    python examples/make_company_graph.py --out /tmp/c.ttl --seed 7

Companies (with subsidiaries), their departments, offices, employees, projects and products, placed in real
cities and countries, with real universities and technologies. The companies, people, departments, offices,
projects and products, and every fact about them, are invented; the geography (city -> country -> continent,
currency) and the universities' cities are real. Standard library only, no network; one seeded
`random.Random`, no iteration over sets or hashes, so the same seed gives the same bytes.

Shape of the graph: company sizes are Pareto-distributed (a few big employers, many small ones); cities are
weighted by a hub order (New York, London, Berlin, ... get most headquarters); technologies by popularity.
Facts are consistent: a person's department and office belong to their employer, a line manager is in the same
company, a project's members work for its sponsor, a subsidiary's country is the one its name says.
Literal attributes are typed (xsd:integer, xsd:decimal, xsd:date, plus a few strings), so kg2tool derives
typed getters and `compare` questions from them.
"""

from __future__ import annotations

import argparse
import math
import random
from collections import Counter, defaultdict
from pathlib import Path

NS = "http://example.org/company/"
DEFAULT_OUT = Path(__file__).resolve().parent / "company.ttl"
DEFAULT_SEED = 7
N_PARENTS = 160
N_SUBSIDIARIES = 60
N_PEOPLE = 1250
LAST_YEAR = 2025

# -- geography (real) ------------------------------------------------------------------------------------------
# country: (continent, currency, legal-form suffix for company alt labels)
COUNTRIES = {
    "United States": ("North America", "United States dollar", "Inc."),
    "Canada": ("North America", "Canadian dollar", "Inc."),
    "Mexico": ("North America", "Mexican peso", "S.A. de C.V."),
    "Brazil": ("South America", "Brazilian real", "Ltda."),
    "United Kingdom": ("Europe", "Pound sterling", "Ltd"),
    "Ireland": ("Europe", "Euro", "Ltd"),
    "Germany": ("Europe", "Euro", "GmbH"),
    "France": ("Europe", "Euro", "SAS"),
    "Netherlands": ("Europe", "Euro", "B.V."),
    "Spain": ("Europe", "Euro", "S.L."),
    "Italy": ("Europe", "Euro", "S.r.l."),
    "Switzerland": ("Europe", "Swiss franc", "AG"),
    "Sweden": ("Europe", "Swedish krona", "AB"),
    "Denmark": ("Europe", "Danish krone", "ApS"),
    "Poland": ("Europe", "Polish złoty", "Sp. z o.o."),
    "India": ("Asia", "Indian rupee", "Pvt Ltd"),
    "Japan": ("Asia", "Japanese yen", "K.K."),
    "South Korea": ("Asia", "South Korean won", "Co., Ltd."),
    "Australia": ("Oceania", "Australian dollar", "Pty Ltd"),
}
COUNTRY_ALT = {"United States": ["USA", "United States of America"], "United Kingdom": ["UK"]}
CURRENCY_ALT = {"Polish złoty": ["Polish zloty"], "United States dollar": ["US dollar"]}
# Cities in hub order (earlier cities get more headquarters and offices).
CITIES = [
    ("New York City", "United States", ["New York", "NYC"]),
    ("London", "United Kingdom", []),
    ("San Francisco", "United States", ["SF"]),
    ("Berlin", "Germany", []),
    ("Bengaluru", "India", ["Bangalore"]),
    ("Tokyo", "Japan", []),
    ("Paris", "France", []),
    ("Seattle", "United States", []),
    ("Toronto", "Canada", []),
    ("Amsterdam", "Netherlands", []),
    ("Sydney", "Australia", []),
    ("Munich", "Germany", ["München"]),
    ("Austin", "United States", []),
    ("Seoul", "South Korea", []),
    ("Stockholm", "Sweden", []),
    ("Boston", "United States", []),
    ("Dublin", "Ireland", []),
    ("São Paulo", "Brazil", []),
    ("Zurich", "Switzerland", ["Zürich"]),
    ("Warsaw", "Poland", []),
    ("Madrid", "Spain", []),
    ("Barcelona", "Spain", []),
    ("Chicago", "United States", []),
    ("Hyderabad", "India", []),
    ("Vancouver", "Canada", []),
    ("Melbourne", "Australia", []),
    ("Milan", "Italy", ["Milano"]),
    ("Copenhagen", "Denmark", []),
    ("Mexico City", "Mexico", []),
    ("Hamburg", "Germany", []),
    ("Manchester", "United Kingdom", []),
    ("Osaka", "Japan", []),
    ("Mumbai", "India", ["Bombay"]),
    ("Pune", "India", []),
    ("Los Angeles", "United States", ["LA"]),
    ("Denver", "United States", []),
    ("Atlanta", "United States", []),
    ("Montreal", "Canada", ["Montréal"]),
    ("Kraków", "Poland", ["Krakow", "Cracow"]),
    ("Lyon", "France", []),
    ("Rotterdam", "Netherlands", []),
    ("Eindhoven", "Netherlands", []),
    ("Frankfurt", "Germany", ["Frankfurt am Main"]),
    ("Edinburgh", "United Kingdom", []),
    ("Geneva", "Switzerland", ["Genève"]),
    ("Gothenburg", "Sweden", ["Göteborg"]),
    ("Aarhus", "Denmark", []),
    ("Wrocław", "Poland", ["Wroclaw"]),
    ("Rome", "Italy", ["Roma"]),
    ("Valencia", "Spain", []),
    ("Toulouse", "France", []),
    ("Rio de Janeiro", "Brazil", []),
    ("Guadalajara", "Mexico", []),
    ("Busan", "South Korea", []),
    ("Fukuoka", "Japan", []),
    ("Brisbane", "Australia", []),
    ("Cork", "Ireland", []),
    ("Cologne", "Germany", ["Köln"]),
    ("Cambridge", "United Kingdom", []),
    ("Turin", "Italy", ["Torino"]),
    ("Miami", "United States", []),
    ("Basel", "Switzerland", []),
    ("Utrecht", "Netherlands", []),
    ("Nantes", "France", []),
    ("Belo Horizonte", "Brazil", []),
    ("Monterrey", "Mexico", []),
]
# Real universities, each in its real city.
UNIVERSITIES = [
    ("New York University", "New York City", ["NYU"]),
    ("Columbia University", "New York City", []),
    ("University of Washington", "Seattle", []),
    ("University of Texas at Austin", "Austin", ["UT Austin"]),
    ("Boston University", "Boston", []),
    ("University of Chicago", "Chicago", []),
    ("University of Toronto", "Toronto", []),
    ("University of British Columbia", "Vancouver", ["UBC"]),
    ("McGill University", "Montreal", []),
    ("University of São Paulo", "São Paulo", []),
    ("National Autonomous University of Mexico", "Mexico City", ["UNAM"]),
    ("Imperial College London", "London", []),
    ("University College London", "London", ["UCL"]),
    ("University of Manchester", "Manchester", []),
    ("University of Edinburgh", "Edinburgh", []),
    ("University of Cambridge", "Cambridge", []),
    ("Trinity College Dublin", "Dublin", []),
    ("Humboldt University of Berlin", "Berlin", []),
    ("Technical University of Munich", "Munich", ["TUM"]),
    ("Sorbonne University", "Paris", []),
    ("University of Amsterdam", "Amsterdam", []),
    ("Eindhoven University of Technology", "Eindhoven", []),
    ("Complutense University of Madrid", "Madrid", []),
    ("University of Barcelona", "Barcelona", []),
    ("Polytechnic University of Milan", "Milan", ["Politecnico di Milano"]),
    ("Sapienza University of Rome", "Rome", []),
    ("ETH Zurich", "Zurich", []),
    ("University of Geneva", "Geneva", []),
    ("KTH Royal Institute of Technology", "Stockholm", ["KTH"]),
    ("University of Copenhagen", "Copenhagen", []),
    ("Aarhus University", "Aarhus", []),
    ("University of Warsaw", "Warsaw", []),
    ("Jagiellonian University", "Kraków", []),
    ("Indian Institute of Science", "Bengaluru", ["IISc"]),
    ("Indian Institute of Technology Bombay", "Mumbai", ["IIT Bombay"]),
    ("University of Tokyo", "Tokyo", []),
    ("Osaka University", "Osaka", []),
    ("Seoul National University", "Seoul", []),
    ("University of Sydney", "Sydney", []),
    ("University of Melbourne", "Melbourne", []),
]
# Technologies in popularity order; `True` marks programming languages (what products are programmed in).
TECHNOLOGIES = [
    ("Python", True, []),
    ("JavaScript", True, ["JS"]),
    ("SQL", True, []),
    ("Java", True, []),
    ("TypeScript", True, []),
    ("Amazon Web Services", False, ["AWS"]),
    ("PostgreSQL", False, ["Postgres"]),
    ("Docker", False, []),
    ("Kubernetes", False, ["K8s"]),
    ("React", False, ["React.js"]),
    ("Golang", True, ["Go"]),
    ("C++", True, []),
    ("C#", True, []),
    ("Node.js", False, []),
    ("Microsoft Azure", False, ["Azure"]),
    ("Google Cloud Platform", False, ["GCP"]),
    ("Rust", True, []),
    ("Kotlin", True, []),
    ("Terraform", False, []),
    ("Redis", False, []),
    ("Apache Kafka", False, ["Kafka"]),
    ("Apache Spark", False, ["Spark"]),
    ("MySQL", False, []),
    ("MongoDB", False, []),
    ("Django", False, []),
    ("Spring Boot", False, []),
    ("PyTorch", False, []),
    ("TensorFlow", False, []),
    ("Swift", True, []),
    ("GraphQL", False, []),
    ("Elasticsearch", False, []),
    ("Scala", True, []),
    ("Ruby", True, []),
    ("PHP", True, []),
    ("Vue.js", False, ["Vue"]),
    ("Angular", False, []),
    ("Apache Airflow", False, ["Airflow"]),
    ("Snowflake", False, []),
    ("gRPC", False, []),
    ("Prometheus", False, []),
    ("Ansible", False, []),
    ("Elixir", True, []),
    ("Haskell", True, []),
    ("Linux", False, []),
]

# -- invented names -----------------------------------------------------------------------------------------
# industry: (company-name suffixes, product categories it tends to make)
INDUSTRIES = {
    "cloud computing": (["Cloud", "Systems", "Networks", "Compute"], ["cloud platform", "developer tool", "database"]),
    "data analytics": (["Analytics", "Data", "Insights", "Metrics"], ["analytics software", "database", "AI service"]),
    "logistics": (["Logistics", "Freight", "Shipping"], ["fleet management software", "mobile app", "marketplace"]),
    "financial technology": (["Pay", "Capital", "Financial", "Fintech"], ["payment service", "mobile app", "API"]),
    "health technology": (
        ["Health", "Medical", "Care"],
        ["medical device software", "mobile app", "analytics software"],
    ),
    "cybersecurity": (["Security", "Shield", "Defense", "Guard"], ["security software", "API", "developer tool"]),
    "robotics": (["Robotics", "Automation", "Machines"], ["industrial robot", "embedded software", "developer tool"]),
    "e-commerce": (["Commerce", "Market", "Retail", "Shop"], ["marketplace", "mobile app", "payment service"]),
    "video games": (["Games", "Studios", "Interactive"], ["video game", "mobile app", "developer tool"]),
    "energy technology": (["Energy", "Power", "Solar", "Grid"], ["energy management software", "embedded software"]),
    "semiconductors": (["Semiconductor", "Silicon", "Microdevices"], ["chip", "embedded software", "developer tool"]),
    "telecommunications": (["Telecom", "Networks", "Communications"], ["API", "mobile app", "networking hardware"]),
    "biotechnology": (
        ["Bio", "Therapeutics", "Genomics"],
        ["analytics software", "AI service", "laboratory software"],
    ),
    "IT consulting": (
        ["Consulting", "Partners", "Advisory"],
        ["developer tool", "analytics software", "CRM software"],
    ),
    "education technology": (["Learning", "Education", "Academy"], ["learning platform", "mobile app", "AI service"]),
    "digital media": (["Media", "Digital", "Publishing"], ["streaming service", "mobile app", "marketplace"]),
    "mobility": (["Mobility", "Motors", "Auto"], ["embedded software", "mobile app", "fleet management software"]),
    "agricultural technology": (["Agro", "Farms", "Harvest"], ["analytics software", "embedded software", "drone"]),
    "insurance technology": (["Insurance", "Assurance", "Risk"], ["CRM software", "API", "mobile app"]),
    "property technology": (["Properties", "Spaces", "Realty"], ["marketplace", "CRM software", "mobile app"]),
    "travel technology": (["Travel", "Journeys", "Trips"], ["marketplace", "mobile app", "API"]),
}
GENERIC_SUFFIXES = ["Technologies", "Labs", "Group", "Solutions", "Software", "Dynamics", "Works", "Industries"]
PRICE_RANGE = {  # product category -> list price range in USD
    "chip": (4, 900), "industrial robot": (18000, 240000), "networking hardware": (150, 12000), "drone": (900, 25000),
    "video game": (10, 70), "mobile app": (0.99, 15), "streaming service": (5, 25),
}  # fmt: skip
NAME_HEADS = """North South East West Blue Red Green Silver Gold Iron Stone Bright Clear Swift Deep High Far Sun Star
Moon Cloud Storm Ever Oak Pine Cedar Maple River Lake Sea Frost Snow Fire Wind Sky Crystal Copper Amber Quick True""".split()
NAME_TAILS = """wind field gate bridge stone peak ridge leaf wave light point haven brook crest line forge path wood
spring fall port view mark well hill vale rock bay fire glen shore""".split()
NAME_WORDS = """Meridian Aurora Helix Vertex Quantum Cobalt Juniper Sequoia Tandem Lumen Kestrel Orion Zephyr Solstice
Tessera Halcyon Nimbus Vireo Altair Obsidian Cinder Larkspur Marigold Calypso Sable Tundra Argent Borealis Cirrus
Delphi Ember Fathom Granite Harbinger Indigo Jasper Keystone Lattice Mosaic Nova Onyx Paragon Quartz Radiant
Sierra Talon Umbra Vantage Willow Xenon Yarrow Zenith Arbor Beacon Cascade Drift Equinox Fable Glacier Hollow
Ion Jade Kinetic Lyric Mistral Nectar Opal Pioneer Quill Ripple Saffron Tidal Upland Verdant Wren Apex Brio
Corvid Dune Elara Flint Gale Heron Iris Juno Kodiak Lynx Magnet Nomad Oasis Pulsar Raven Summit Thistle""".split()
PRODUCT_WORDS = """Pulse Ledger Atlas Beacon Compass Forge Harbor Insight Lens Matrix Nexus Orbit Prism Relay
Sentinel Spark Vault Vector Horizon Canvas Anchor Bridge Flux Grid Hive Pilot Radar Scout Signal Stream Tide Vista
Weave Echo Fusion Core Flow Link Sync Track Shield Engine Studio Cloud Desk Hub Base Loop Sense Wave Point Gate
Board Lab Mint Nest Path Sight Trail Ward Frame Mesh""".split()
PROJECT_ADJECTIVES = """Crimson Silent Golden Hidden Rapid Brave Silver Northern Quiet Scarlet Azure Iron Velvet Frozen
Burning Hollow Ancient Lucky Electric Lunar Solar Wild Gentle Bold Distant Emerald Copper Midnight Polar Amber
Radiant Swift Misty Stormy Clever Cosmic Crystal Dusty Echoing Fierce""".split()
PROJECT_NOUNS = """Falcon Otter Badger Heron Lynx Orca Panther Raven Sparrow Tortoise Walrus Yak Zebra Bison Cobra
Dolphin Eagle Ferret Gazelle Hedgehog Ibis Jaguar Koala Lemur Marmot Narwhal Ocelot Pelican Quokka Salmon Tiger
Viper Wombat Albatross Beetle Condor Dragonfly Firefly Gecko Hornet Kingfisher Mantis Nightingale Puffin""".split()
# department: (weight, job titles of its members)
DEPARTMENTS = {
    "Engineering": (
        10,
        ["Software Engineer", "Senior Software Engineer", "Staff Engineer", "Site Reliability Engineer"],
    ),
    "Sales": (6, ["Account Executive", "Sales Development Representative", "Sales Engineer"]),
    "Marketing": (4, ["Marketing Manager", "Content Strategist", "Growth Analyst"]),
    "Finance": (3, ["Financial Analyst", "Accountant", "Controller"]),
    "Human Resources": (3, ["Recruiter", "HR Business Partner"]),
    "Product Management": (4, ["Product Manager", "Senior Product Manager"]),
    "Data Science": (4, ["Data Scientist", "Machine Learning Engineer", "Data Engineer"]),
    "Customer Success": (3, ["Customer Success Manager", "Support Engineer"]),
    "Operations": (3, ["Operations Manager", "Business Analyst"]),
    "Legal": (2, ["Legal Counsel", "Compliance Officer"]),
    "Research": (2, ["Research Scientist", "Research Engineer"]),
    "Security": (2, ["Security Engineer", "Security Analyst"]),
    "Design": (3, ["Product Designer", "UX Researcher"]),
}
TECH_DEPARTMENTS = ("Engineering", "Data Science", "Research", "Security")
# name region: (first names, last names); countries map to a region, with some mixing
NAMES = {
    "english": (
        """James Olivia Liam Emma Noah Ava William Sophia Benjamin Isabella Lucas Mia Henry Charlotte Alexander
        Amelia Daniel Harper Michael Evelyn Ethan Abigail Owen Emily Samuel Ella Jack Grace Thomas Chloe Ryan Hannah
        Nathan Lily Caleb Zoe Dylan Nora Aaron Claire""",
        """Smith Johnson Williams Brown Jones Miller Davis Wilson Taylor Anderson Thomas Moore Martin Jackson
        Thompson White Harris Clark Lewis Robinson Walker Young Allen Wright Scott Green Baker Adams Nelson Hill
        Campbell Mitchell Roberts Carter Phillips Evans Turner Parker Collins Edwards Stewart Morris Murphy Cook
        Rogers Morgan Cooper Peterson Reed Bailey Kelly Howard Ward Cox Richardson Wood Watson Brooks Bennett Gray
        Hughes Price Sanders Myers Long Ross Foster Fletcher Hayes Sullivan Walsh O'Brien Byrne Kennedy Lynch""",
    ),
    "german": (
        """Lukas Anna Felix Lena Jonas Marie Leon Sophie Paul Laura Maximilian Julia Finn Lea Elias Hannah Tobias
        Johanna Moritz Clara Jan Katharina Niklas Mia Florian Sarah Matthias Theresa Stefan Nina""",
        """Müller Schmidt Schneider Fischer Weber Meyer Wagner Becker Schulz Hoffmann Koch Richter Klein Wolf
        Schröder Neumann Schwarz Zimmermann Braun Krüger Hofmann Hartmann Lange Schmitt Werner Krause Meier Lehmann
        Huber Keller Frei Brunner Baumann""",
    ),
    "french": (
        """Louis Camille Hugo Léa Arthur Chloé Jules Manon Gabriel Inès Raphaël Juliette Mathis Lucie Théo Zoé
        Antoine Margaux Clément Élodie Maxime Pauline Nicolas Aurélie Julien Céline""",
        """Martin Bernard Dubois Thomas Robert Richard Petit Durand Leroy Moreau Simon Laurent Lefebvre Michel
        Garcia David Bertrand Roux Vincent Fournier Morel Girard André Lefèvre Mercier Dupont Lambert Bonnet
        Fontaine Rousseau""",
    ),
    "dutch": (
        """Daan Emma Sem Julia Lucas Tess Levi Sanne Thijs Fleur Bram Lotte Ruben Anouk Jesse Noor Stijn Roos""",
        """de~Jong Jansen de~Vries van~den~Berg van~Dijk Bakker Visser Smit Meijer de~Boer Mulder de~Groot Bos Vos
        Peters Hendriks van~Leeuwen Dekker Brouwer de~Wit""",
    ),
    "spanish": (
        """Alejandro Lucía Pablo María Daniel Paula Javier Sofía Adrián Carmen Diego Elena Sergio Valeria Mateo
        Ximena Santiago Camila Andrés Fernanda Jorge Isabel Carlos Marta""",
        """García Rodríguez González Fernández López Martínez Sánchez Pérez Gómez Martín Jiménez Ruiz Hernández
        Díaz Moreno Álvarez Romero Navarro Torres Domínguez Ramírez Flores Vargas Castillo Ortega Morales""",
    ),
    "portuguese": (
        """João Ana Pedro Beatriz Gabriel Mariana Lucas Larissa Rafael Juliana Matheus Camila Gustavo Fernanda
        Thiago Letícia Felipe Amanda Bruno Carolina""",
        """Silva Santos Oliveira Souza Rodrigues Ferreira Alves Pereira Lima Gomes Costa Ribeiro Martins Carvalho
        Almeida Lopes Soares Fernandes Vieira Barbosa Rocha Dias Nascimento Moura""",
    ),
    "italian": (
        """Francesco Giulia Alessandro Sofia Lorenzo Aurora Matteo Martina Leonardo Chiara Andrea Francesca Marco
        Alessia Luca Elisa Davide Federica Simone Valentina""",
        """Rossi Russo Ferrari Esposito Bianchi Romano Colombo Ricci Marino Greco Bruno Gallo Conti De~Luca Mancini
        Costa Giordano Rizzo Lombardi Moretti Barbieri Fontana""",
    ),
    "nordic": (
        """Erik Astrid Lars Ingrid Oskar Freja Anders Maja Mikkel Sofie Johan Elsa Nils Linnea Magnus Ida Henrik
        Karin Emil Signe""",
        """Andersson Johansson Karlsson Nilsson Eriksson Larsson Olsson Persson Svensson Lindberg Jensen Nielsen
        Hansen Pedersen Andersen Christensen Rasmussen Sørensen Lindqvist Holm""",
    ),
    "polish": (
        """Jakub Zuzanna Kacper Julia Szymon Maja Filip Zofia Mateusz Hanna Bartosz Aleksandra Michał Natalia
        Piotr Agnieszka Tomasz Magdalena""",
        """Nowak Kowalski Wiśniewski Wójcik Kowalczyk Kamiński Lewandowski Zieliński Szymański Woźniak Dąbrowski
        Kozłowski Jankowski Mazur Kwiatkowski Krawczyk Piotrowski Grabowski""",
    ),
    "indian": (
        """Aarav Ananya Vivaan Diya Aditya Isha Arjun Priya Rohan Kavya Rahul Sneha Vikram Pooja Karthik Meera
        Siddharth Nisha Amit Divya Sanjay Lakshmi Arnav Riya""",
        """Sharma Patel Singh Kumar Gupta Reddy Iyer Nair Rao Mehta Joshi Desai Kapoor Bhat Menon Pillai Chatterjee
        Banerjee Malhotra Agarwal Verma Krishnan Mishra Shah""",
    ),
    "japanese": (
        """Haruto Yui Sota Hina Yuto Aoi Riku Sakura Kaito Mei Ren Yuna Takumi Rin Hiroshi Yuki Kenji Akiko Daiki
        Naomi""",
        """Sato Suzuki Takahashi Tanaka Watanabe Ito Yamamoto Nakamura Kobayashi Kato Yoshida Yamada Sasaki
        Yamaguchi Matsumoto Inoue Kimura Hayashi Shimizu Mori""",
    ),
    "korean": (
        """Min-jun Seo-yeon Ji-ho Ha-eun Do-yun Ji-woo Seo-jun Su-ah Ye-jun Chae-won Jae-won Yu-na Hyun-woo
        Da-eun Sung-min Eun-ji""",
        """Kim Lee Park Choi Jung Kang Cho Yoon Jang Lim Han Oh Seo Shin Kwon Hwang Ahn Song""",
    ),
}
REGION_OF = {
    "United States": "english", "Canada": "english", "United Kingdom": "english", "Ireland": "english",
    "Australia": "english", "Germany": "german", "Switzerland": "german", "France": "french",
    "Netherlands": "dutch", "Spain": "spanish", "Mexico": "spanish", "Brazil": "portuguese", "Italy": "italian",
    "Sweden": "nordic", "Denmark": "nordic", "Poland": "polish", "India": "indian", "Japan": "japanese",
    "South Korea": "korean",
}  # fmt: skip
MIDDLE_INITIALS = "ABCDEFGHJKLMNPRSTW"

# -- schema: classes, relations, attributes -----------------------------------------------------------------
CLASSES = {
    "Company": "company", "Department": "department", "Office": "office", "Person": "person",
    "Project": "project", "Product": "product", "City": "city", "Country": "country", "Continent": "continent",
    "Currency": "currency", "Industry": "industry", "Technology": "technology", "University": "university",
    "JobTitle": "job title", "ProductCategory": "product category",
}  # fmt: skip
# local name: (label, description, domain, range)
RELATIONS = {
    "country": ("country", "Country in which a city lies.", "City", "Country"),
    "continent": ("continent", "Continent of which a country is a part.", "Country", "Continent"),
    "currency": ("currency", "Official currency of a country.", "Country", "Currency"),
    "headquartered_in": ("headquarters location", "City where a company's headquarters are.", "Company", "City"),
    "industry": ("industry", "Industry in which a company operates.", "Company", "Industry"),
    "subsidiary_of": (
        "parent organization",
        "Company that owns this company (it is a subsidiary).",
        "Company",
        "Company",
    ),
    "founded_by": ("founded by", "Founder or co-founder of a company.", "Company", "Person"),
    "ceo": ("chief executive officer", "Person who runs a company as its CEO.", "Company", "Person"),
    "customer_of": (
        "supplier",
        "Company that sells products or services to this company (this company is a customer of it).",
        "Company",
        "Company",
    ),
    "department_of": ("part of", "Company that a department belongs to.", "Department", "Company"),
    "managed_by": ("head", "Person who manages a department.", "Department", "Person"),
    "office_of": ("operator", "Company that runs an office.", "Office", "Company"),
    "located_in": ("location", "City where an office or a university is.", None, "City"),
    "works_for": ("employer", "Company that employs a person.", "Person", "Company"),
    "member_of_department": ("department", "Department in which a person works.", "Person", "Department"),
    "works_at": ("work location", "Office where a person works.", "Person", "Office"),
    "reports_to": ("line manager", "Person to whom this person reports.", "Person", "Person"),
    "job_title": ("job title", "Position a person holds at their employer.", "Person", "JobTitle"),
    "educated_at": ("educated at", "University where a person studied.", "Person", "University"),
    "residence": ("residence", "City where a person lives.", "Person", "City"),
    "citizenship": ("country of citizenship", "Country of which a person is a citizen.", "Person", "Country"),
    "skill": ("skill", "Technology a person knows well.", "Person", "Technology"),
    "member_of_project": ("project", "Project in which a person takes part.", "Person", "Project"),
    "led_by": ("project lead", "Person who leads a project.", "Project", "Person"),
    "uses_technology": ("tech stack", "Technology a project is built with.", "Project", "Technology"),
    "sponsored_by": ("sponsor", "Company that runs and pays for a project.", "Project", "Company"),
    "deliverable": ("deliverable", "Product that a project builds or improves.", "Project", "Product"),
    "produces": ("product", "Product that a company makes and sells.", "Company", "Product"),
    "programmed_in": (
        "programmed in",
        "Programming language a software product is written in.",
        "Product",
        "Technology",
    ),
    "product_category": ("product category", "Kind of product.", "Product", "ProductCategory"),
}
# local name: (label, description, domain, xsd datatype)
ATTRIBUTES = {
    "founding_year": ("founding year", "Year in which a company was founded.", "Company", "integer"),
    "employee_count": ("number of employees", "Total headcount of a company.", "Company", "integer"),
    "revenue": (
        "annual revenue (million USD)",
        "Revenue of a company in its last fiscal year, in millions of US dollars.",
        "Company",
        "decimal",
    ),
    "ticker": ("stock ticker symbol", "Ticker symbol of a listed company.", "Company", "string"),
    "budget": (
        "annual budget (million USD)",
        "Yearly budget of a department, in millions of US dollars.",
        "Department",
        "decimal",
    ),
    "opening_date": ("opening date", "Date on which an office opened.", "Office", "date"),
    "desk_capacity": ("desk capacity", "Number of desks in an office.", "Office", "integer"),
    "birth_date": ("date of birth", "Date on which a person was born.", "Person", "date"),
    "hire_date": ("hire date", "Date on which a person joined their employer.", "Person", "date"),
    "start_date": ("start date", "Date on which a project started.", "Project", "date"),
    "project_budget": (
        "project budget (thousand USD)",
        "Approved budget of a project, in thousands of US dollars.",
        "Project",
        "decimal",
    ),
    "release_date": ("release date", "Date on which a product was first released.", "Product", "date"),
    "list_price": ("list price (USD)", "Price of a product in US dollars.", "Product", "decimal"),
    "latest_version": ("latest version", "Version number of the product's most recent release.", "Product", "string"),
}


class Graph:
    """Entities with labels, types and facts; serialized to Turtle in id order."""

    def __init__(self):
        self.label: dict[str, str] = {}
        self.kind: dict[str, str] = {}
        self.alt: dict[str, list[str]] = defaultdict(list)
        self.desc: dict[str, str] = {}
        self.facts: dict[str, list[tuple[str, str]]] = defaultdict(list)  # subject -> (predicate, object term)
        self.names_used: set[str] = set()
        self.counters: Counter = Counter()

    def add(self, kind: str, label: str, prefix: str) -> str:
        if label.casefold() in self.names_used:
            raise ValueError(f"duplicate label {label!r}")
        self.names_used.add(label.casefold())
        self.counters[prefix] += 1
        eid = f"{prefix}_{self.counters[prefix]:04d}"
        self.label[eid], self.kind[eid] = label, kind
        return eid

    def free(self, label: str) -> bool:
        return label.casefold() not in self.names_used

    def rel(self, s: str, p: str, o: str) -> None:
        assert p in RELATIONS, p
        if (p, "c:" + o) not in self.facts[s]:
            self.facts[s].append((p, "c:" + o))

    def attr(self, s: str, p: str, value) -> None:
        dtype = ATTRIBUTES[p][3]
        if dtype == "string":
            term = turtle_string(str(value))
        elif dtype == "decimal":
            term = f'"{value:.2f}"^^xsd:decimal'
        else:
            term = f'"{value}"^^xsd:{dtype}'
        self.facts[s].append((p, term))

    def turtle(self) -> str:
        out = [
            "# A fictional corporate knowledge graph, generated by examples/make_company_graph.py (kg2tool).",
            "# Companies, people, departments, offices, projects and products are invented; see company.ATTRIBUTION.md.",
            "@prefix c: <" + NS + "> .",
            "@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .",
            "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .",
            "@prefix schema: <http://schema.org/> .",
            "@prefix skos: <http://www.w3.org/2004/02/skos/core#> .",
            "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .",
            "",
        ]
        for cls, label in CLASSES.items():
            out.append(f"c:{cls} a rdfs:Class ; rdfs:label {turtle_string(label)}@en .")
        out.append("")
        for p, (label, desc, dom, rng) in RELATIONS.items():
            domain = f" ; rdfs:domain c:{dom}" if dom else ""  # none for `location`: offices and universities
            out.append(
                f"c:{p} a rdf:Property ; rdfs:label {turtle_string(label)}@en ;\n"
                f"    schema:description {turtle_string(desc)}@en{domain} ; rdfs:range c:{rng} ."
            )
        for p, (label, desc, dom, dtype) in ATTRIBUTES.items():
            out.append(
                f"c:{p} a rdf:Property ; rdfs:label {turtle_string(label)}@en ;\n"
                f"    schema:description {turtle_string(desc)}@en ; rdfs:domain c:{dom} ; rdfs:range xsd:{dtype} ."
            )
        for eid in sorted(self.label):
            out.append("")
            lines = [f"c:{eid} a c:{self.kind[eid]}", f"rdfs:label {turtle_string(self.label[eid])}@en"]
            lines += [f"skos:altLabel {turtle_string(a)}@en" for a in self.alt.get(eid, [])]
            if eid in self.desc:
                lines.append(f"schema:description {turtle_string(self.desc[eid])}@en")
            lines += [f"c:{p} {o}" for p, o in self.facts.get(eid, [])]
            out.append(" ;\n    ".join(lines) + " .")
        return "\n".join(out) + "\n"


def turtle_string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def weighted(rng: random.Random, items: list, weights: list[float]):
    return rng.choices(items, weights=weights, k=1)[0]


def sample_weighted(rng: random.Random, items: list, weights: list[float], k: int) -> list:
    """k distinct items, drawn by weight without replacement (in draw order)."""
    items, weights = list(items), list(weights)
    out = []
    while items and len(out) < k:
        i = rng.choices(range(len(items)), weights=weights, k=1)[0]
        out.append(items.pop(i))
        weights.pop(i)
    return out


def date_between(rng: random.Random, start: tuple[int, int, int], end: tuple[int, int, int]) -> str:
    import datetime as dt

    a, b = dt.date(*start).toordinal(), dt.date(*end).toordinal()
    return dt.date.fromordinal(rng.randint(a, max(a, b))).isoformat()


def build(seed: int = DEFAULT_SEED) -> Graph:
    rng = random.Random(seed)
    g = Graph()
    hub = lambda i: 1.0 / (i + 1) ** 0.9  # noqa: E731  (weight of the i-th item in a hub order)

    # geography, universities, technologies, industries
    continents = {c: g.add("Continent", c, "continent") for c in sorted({v[0] for v in COUNTRIES.values()})}
    currencies = {c: g.add("Currency", c, "currency") for c in sorted({v[1] for v in COUNTRIES.values()})}
    for cur, alts in CURRENCY_ALT.items():
        g.alt[currencies[cur]] += alts
    countries = {}
    for name, (cont, cur, _) in COUNTRIES.items():
        countries[name] = c = g.add("Country", name, "country")
        g.rel(c, "continent", continents[cont])
        g.rel(c, "currency", currencies[cur])
        g.alt[c] += COUNTRY_ALT.get(name, [])
    cities, city_country = {}, {}
    for name, country, alts in CITIES:
        cities[name] = c = g.add("City", name, "city")
        city_country[c] = country
        g.rel(c, "country", countries[country])
        g.alt[c] += alts
    city_ids = [cities[n] for n, _, _ in CITIES]
    city_w = [hub(i) for i in range(len(city_ids))]
    cities_in = defaultdict(list)
    for c in city_ids:
        cities_in[city_country[c]].append(c)
    universities, uni_country = [], {}
    for name, city, alts in UNIVERSITIES:
        u = g.add("University", name, "university")
        uni_country[u] = city_country[cities[city]]
        g.rel(u, "located_in", cities[city])
        g.alt[u] += alts
        universities.append(u)
    techs, langs = [], []
    for name, is_lang, alts in TECHNOLOGIES:
        t = g.add("Technology", name, "tech")
        g.alt[t] += alts
        g.desc[t] = "programming language" if is_lang else "software technology"
        techs.append(t)
        if is_lang:
            langs.append(t)
    tech_w = [hub(i) for i in range(len(techs))]
    lang_w = [tech_w[techs.index(t)] for t in langs]
    industries = {name: g.add("Industry", name, "industry") for name in INDUSTRIES}
    all_categories = sorted({cat for _, cats in INDUSTRIES.values() for cat in cats})
    named: dict[tuple[str, str], str] = {}  # job titles and product categories, created when first used

    def node(kind: str, name: str) -> str:
        if (kind, name) not in named:
            named[kind, name] = g.add(kind, name, {"JobTitle": "title", "ProductCategory": "category"}[kind])
        return named[kind, name]

    def title(name: str) -> str:
        return node("JobTitle", name)

    # companies: parents first, then subsidiaries of (mostly big) parents
    industry_names = list(INDUSTRIES)
    industry_w = [hub(i) ** 0.5 for i in range(len(industry_names))]
    heads_used: set[str] = set()
    companies: list[dict] = []

    def company_head() -> str:
        for _ in range(1000):
            if rng.random() < 0.45:
                head = rng.choice(NAME_WORDS)
            else:
                first, tail = rng.choice(NAME_HEADS), rng.choice(NAME_TAILS)
                if tail in first.lower():  # no "Stonestone"
                    continue
                head = first + tail
            if head not in heads_used:
                heads_used.add(head)
                return head
        raise RuntimeError("ran out of company names")

    for _ in range(N_PARENTS):
        ind = weighted(rng, industry_names, industry_w)
        head = company_head()
        suffix = rng.choice(INDUSTRIES[ind][0] if rng.random() < 0.7 else GENERIC_SUFFIXES)
        hq = weighted(rng, city_ids, city_w)
        size = min(rng.paretovariate(1.1), 120.0)
        companies.append(
            {
                "name": f"{head} {suffix}",
                "head": head,
                "industry": ind,
                "hq": hq,
                "size": size,
                "parent": None,
                "founded": LAST_YEAR - min(int(rng.expovariate(1 / 14)), 48) - 2,
            }
        )
    parents = list(companies)
    for _ in range(N_SUBSIDIARIES):
        p = weighted(rng, parents, [c["size"] ** 1.3 for c in parents])
        home = city_country[p["hq"]]
        if rng.random() < 0.5:
            country = weighted(rng, list(COUNTRIES), [hub(i) for i in range(len(COUNTRIES))])
            name = f"{p['name']} {country}"
            hq = weighted(rng, cities_in[country], [city_w[city_ids.index(c)] for c in cities_in[country]])
            ind = p["industry"]
            if country == home or any(c["name"] == name for c in companies):
                continue
        else:
            ind = weighted(rng, industry_names, industry_w)
            name = f"{p['head']} {rng.choice(INDUSTRIES[ind][0])}"
            hq = weighted(rng, city_ids, city_w)
            if any(c["name"] == name for c in companies):
                continue
        companies.append(
            {
                "name": name,
                "head": p["head"],
                "industry": ind,
                "hq": hq,
                "parent": p,
                "size": min(rng.paretovariate(1.4), 12.0),
                "founded": rng.randint(p["founded"] + 1, LAST_YEAR - 1),
            }
        )
    for c in companies:
        c["id"] = g.add("Company", c["name"], "company")
        country = city_country[c["hq"]]
        g.alt[c["id"]].append(f"{c['name']} {COUNTRIES[country][2]}")
        g.rel(c["id"], "headquartered_in", c["hq"])
        g.rel(c["id"], "industry", industries[c["industry"]])
        if rng.random() < 0.12:
            g.rel(c["id"], "industry", industries[weighted(rng, industry_names, industry_w)])
        if c["parent"]:
            g.rel(c["id"], "subsidiary_of", c["parent"]["id"])
            g.desc[c["id"]] = f"{c['industry']} company in {g.label[c['hq']]}, a subsidiary of {c['parent']['name']}"
        else:
            g.desc[c["id"]] = f"{c['industry']} company headquartered in {g.label[c['hq']]}, {country}"
        g.attr(c["id"], "founding_year", c["founded"])

    # people: every company gets two, the rest go by size
    assign = [c for c in companies for _ in range(2)]
    assign += rng.choices(companies, weights=[c["size"] for c in companies], k=N_PEOPLE - len(assign))

    def person_name(country: str) -> str:
        region = REGION_OF[country] if rng.random() < 0.8 else rng.choice(sorted(NAMES))
        firsts, lasts = ([n.replace("~", " ") for n in s.split()] for s in NAMES[region])  # "de~Jong": one name
        for attempt in range(50):
            first, last = rng.choice(firsts), rng.choice(lasts)
            if region == "polish" and first.endswith("a") and last.endswith("ki"):
                last = last[:-1] + "a"  # Nowak, but Kowalski / Anna Kowalska
            name = f"{first} {last}" if attempt < 20 else f"{first} {rng.choice(MIDDLE_INITIALS)}. {last}"
            if g.free(name):
                return name
        raise RuntimeError("ran out of person names")

    offices_of = {}
    for c in companies:
        n = sum(1 for a in assign if a is c)
        c["n"] = n
        # offices: headquarters, plus more for bigger companies
        home = city_country[c["hq"]]
        extra = [x for x in city_ids if x != c["hq"]]
        other = sample_weighted(
            rng,
            extra,
            [city_w[city_ids.index(x)] * (3 if city_country[x] == home else 1) for x in extra],
            min(5, n // 15),
        )
        offices = []
        for city in [c["hq"], *other]:
            o = g.add("Office", f"{c['name']} {g.label[city]} Office", "office")
            g.rel(o, "office_of", c["id"])
            g.rel(o, "located_in", city)
            first = (c["founded"], 12, 31) if city == c["hq"] else (LAST_YEAR, 6, 30)  # headquarters: year one
            g.attr(o, "opening_date", date_between(rng, (c["founded"], 1, 1), first))
            g.attr(o, "desk_capacity", 10 * rng.randint(2, 12) * (1 + n // 10))
            offices.append((o, city))
        offices_of[c["id"]] = offices
    tech_people: set[str] = set()  # membership only
    for c in companies:
        cid, n = c["id"], c["n"]
        k = max(1, min(8, round(math.log2(n)))) if n > 1 else 1  # departments; each gets a member below
        names = ["Engineering"] + sample_weighted(
            rng,
            [d for d in DEPARTMENTS if d != "Engineering"],
            [DEPARTMENTS[d][0] for d in DEPARTMENTS if d != "Engineering"],
            k - 1,
        )
        depts = []
        for dname in names:
            d = g.add("Department", f"{c['name']} {dname}", "dept")
            g.rel(d, "department_of", cid)
            g.attr(
                d, "budget", round(rng.uniform(0.3, 2.5) * max(1, n / k) * (1.4 if dname == "Engineering" else 1), 2)
            )
            depts.append((d, dname))
        offices = offices_of[cid]
        people = []
        for i in range(n):
            office, city = offices[0] if i == 0 or rng.random() < 0.55 else rng.choice(offices)
            country = city_country[city]
            if rng.random() < 0.25:
                country = weighted(rng, list(COUNTRIES), [hub(i) for i in range(len(COUNTRIES))])
            p = g.add("Person", person_name(country), "person")
            people.append(p)
            g.rel(p, "works_for", cid)
            g.rel(p, "works_at", office)
            g.rel(p, "citizenship", countries[country])
            g.rel(p, "residence", city if rng.random() < 0.85 else rng.choice(cities_in[city_country[city]]))
            for _ in range(0 if rng.random() < 0.2 else (1 if rng.random() < 0.8 else 2)):
                home_unis = [u for u in universities if uni_country[u] == country]
                pool = home_unis if home_unis and rng.random() < 0.6 else universities
                g.rel(p, "educated_at", rng.choice(pool))
        # roles: CEO, department members and heads, line managers, job titles
        ceo = people[0]
        g.rel(cid, "ceo", ceo)
        g.rel(ceo, "job_title", title("Chief Executive Officer"))
        members = defaultdict(list)
        members[depts[0][0]].append(ceo)
        dept_w = [DEPARTMENTS[dn][0] for _, dn in depts]
        for i, d in enumerate(depts):  # one person per department first, then by weight
            if i + 1 < n:
                members[d[0]].append(people[i + 1])
        for p in people[len(depts) + 1 :]:
            members[weighted(rng, depts, dept_w)[0]].append(p)
        heads = []
        for d, dname in depts:
            ms = members[d]
            if not ms:
                continue
            head = ms[0] if ms[0] != ceo or len(ms) == 1 else ms[1]
            heads.append(head)
            g.rel(d, "managed_by", head)
            if head != ceo:
                g.rel(head, "job_title", title(f"Head of {dname}"))
                g.rel(head, "reports_to", ceo)
            leads = [m for m in ms if m not in (head, ceo)][: len(ms) // 7]
            for m in ms:
                g.rel(m, "member_of_department", d)
                if m in (head, ceo):
                    continue
                if m in leads:
                    g.rel(m, "job_title", title("Engineering Manager" if dname == "Engineering" else "Team Lead"))
                    g.rel(m, "reports_to", head)
                else:
                    g.rel(m, "job_title", title(rng.choice(DEPARTMENTS[dname][1])))
                    g.rel(m, "reports_to", rng.choice(leads) if leads and rng.random() < 0.8 else head)
                if dname in TECH_DEPARTMENTS:
                    tech_people.add(m)
                    for t in sample_weighted(rng, techs, tech_w, rng.randint(1, 4)):
                        g.rel(m, "skill", t)
                elif rng.random() < 0.3:
                    g.rel(m, "skill", weighted(rng, techs, tech_w))
        # founders (of parent companies founded since 1995, so still at work): the CEO or a department head
        founders = []
        if not c["parent"] and c["founded"] >= 1995:
            founders = [ceo] if rng.random() < 0.6 else []
            if not founders or rng.random() < 0.35:
                founders += [h for h in sample_weighted(rng, heads, [1] * len(heads), 1) if h not in founders]
            for f in founders:
                g.rel(cid, "founded_by", f)
        for p in people:  # founders joined in the founding year; everyone else after turning 22
            if p in founders:
                born = (c["founded"] - rng.randint(23, 40), rng.randint(1, 12), rng.randint(1, 28))
                hired = date_between(rng, (c["founded"], 1, 1), (c["founded"], 12, 31))
            else:
                born = (rng.randint(1962, 2001), rng.randint(1, 12), rng.randint(1, 28))
                start = min(max(c["founded"], born[0] + 22), LAST_YEAR)
                hired = date_between(rng, (start, 1, 1), (LAST_YEAR, 6, 30))
            g.attr(p, "birth_date", "{:04d}-{:02d}-{:02d}".format(*born))
            g.attr(p, "hire_date", hired)

        # products
        cats = INDUSTRIES[c["industry"]][1]
        products = []
        for _ in range(1 + (n >= 6) + (n >= 20) + (n >= 50) + (rng.random() < 0.3)):
            for _ in range(30):
                label = f"{c['head']} {rng.choice(PRODUCT_WORDS)}"
                if g.free(label):
                    break
            else:
                continue
            pr = g.add("Product", label, "product")
            products.append(pr)
            g.rel(cid, "produces", pr)
            cat = rng.choice(cats) if rng.random() < 0.85 else rng.choice(all_categories)
            g.rel(pr, "product_category", node("ProductCategory", cat))
            g.desc[pr] = f"{cat} by {c['name']}"
            if cat not in ("chip", "industrial robot", "networking hardware", "drone") or rng.random() < 0.5:
                for t in sample_weighted(rng, langs, lang_w, rng.randint(1, 3)):
                    g.rel(pr, "programmed_in", t)
            lo, hi = PRICE_RANGE.get(cat, (20, 5000))
            g.attr(pr, "list_price", round(math.exp(rng.uniform(math.log(lo), math.log(hi))), 2))
            g.attr(pr, "release_date", date_between(rng, (c["founded"] + 1, 1, 1), (LAST_YEAR, 6, 30)))
            major = rng.randint(1, 9) if rng.random() < 0.8 else 2000 + rng.randint(18, 25)
            g.attr(pr, "latest_version", f"{major}.{rng.randint(0, 20)}.{rng.randint(0, 9)}")
        c["products"] = products

        # projects
        for _ in range(n // 7 + (rng.random() < 0.6 and n >= 3)):
            for _ in range(100):
                label = f"Project {rng.choice(PROJECT_ADJECTIVES)} {rng.choice(PROJECT_NOUNS)}"
                if g.free(label):
                    break
            pj = g.add("Project", label, "project")
            g.desc[pj] = f"internal project at {c['name']}"
            g.rel(pj, "sponsored_by", cid)
            team = sample_weighted(
                rng, people, [3 if p in tech_people else 1 for p in people], rng.randint(2, max(2, min(9, n)))
            )
            lead = next((p for p in team if p in heads), team[0])
            g.rel(pj, "led_by", lead)
            for p in team:
                g.rel(p, "member_of_project", pj)
            known = [o[2:] for p in team for (rel, o) in g.facts[p] if rel == "skill"]
            for t in sample_weighted(
                rng, techs, [w * (4 if t in known else 1) for t, w in zip(techs, tech_w)], rng.randint(1, 4)
            ):
                g.rel(pj, "uses_technology", t)
            if products and rng.random() < 0.65:
                g.rel(pj, "deliverable", rng.choice(products))
            g.attr(pj, "start_date", date_between(rng, (max(c["founded"], 2015), 1, 1), (LAST_YEAR, 6, 30)))
            g.attr(pj, "project_budget", round(math.exp(rng.uniform(math.log(40), math.log(4000))), 1))

    # company-level numbers and suppliers (after headcounts are known)
    tickers = set()
    for c in companies:
        cid = c["id"]
        headcount = int(c["n"] * rng.uniform(6, 30)) + rng.randint(3, 40)
        g.attr(cid, "employee_count", headcount)
        g.attr(cid, "revenue", round(headcount * rng.uniform(0.08, 0.4), 1))
        if headcount > 250 and not c["parent"]:
            for _ in range(100):
                letters = c["name"].replace(" ", "").upper()
                tick = letters[0] + "".join(rng.sample(letters[1:], rng.randint(2, 3)))
                if tick.isalpha() and tick not in tickers:
                    tickers.add(tick)
                    g.attr(cid, "ticker", tick)
                    break
        family = {cid} | ({c["parent"]["id"]} if c["parent"] else set())
        others = [d for d in companies if d["id"] not in family and not (d["parent"] and d["parent"]["id"] == cid)]
        for s in sample_weighted(rng, others, [d["size"] for d in others], rng.choice((0, 1, 1, 2, 2, 3))):
            g.rel(cid, "customer_of", s["id"])
    return g


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="Turtle file to write (default: %(default)s)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help="random seed (default: %(default)s)")
    args = ap.parse_args(argv)
    g = build(args.seed)
    text = g.turtle()
    args.out.write_text(text, encoding="utf-8")
    n_facts = sum(len(v) for v in g.facts.values())
    print(f"wrote {args.out}: {len(g.label):,} entities, {n_facts:,} facts, {len(text.encode()):,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
